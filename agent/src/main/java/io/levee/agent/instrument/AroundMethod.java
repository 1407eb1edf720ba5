package io.levee.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves one {@link Advice} around one method body, as its comment shows, in one pass over the
 * method's instructions.
 *
 * <p>Locals: the woven code's own (the token, the start, the copies of what the exit methods get, a
 * slot for the return value and one for the exception) go right after the arguments, and every
 * local of the original moves up by their size. Every stack map frame of the original (read
 * expanded) gets them inserted at that place, with their types: they are assigned before the
 * original's first instruction and never again, so they are what the frame says everywhere in the
 * body. The exception handler and the skip path have frames of their own, in which the original's
 * slots are all {@code TOP}: that code only uses the woven code's locals, so whatever the body did
 * with the argument slots cannot make it fail verification.
 *
 * <p>The try range: one handler entry per stretch of the original between two returns, so that the
 * exit call at a return (which may throw a blocked call's exception on purpose) is not inside it.
 * Its entries come after the original's, so every handler of the original takes precedence.
 *
 * <p>Class files before version 50 have no stack map frames; none are written for them.
 */
final class AroundMethod extends MovedLocals {
  private static final String OBJECT = "java/lang/Object";
  private static final String BLOCKED = "io/levee/bootstrap/Blocked";

  /** The most the woven code adds to the operand stack at any point. */
  private static final int EXTRA_STACK = 12;

  private final Advice advice;
  private final String owner;
  private final boolean frames;
  private final Type[] args;
  private final Type returnType;
  private final int[] argSlot;
  private final int argsSize;

  private final int tokenSlot;
  private final int startSlot;
  private final int thisCopy;
  private final int[] argCopy;
  private final int returnSlot;
  private final int exceptionSlot;
  private final int shift;

  /** The woven code's locals as frame entries, in slot order. */
  private final Object[] ownLocals;

  private final List<Label[]> ranges = new ArrayList<Label[]>();
  private Label rangeStart;
  private boolean rangeHasCode;
  private Label skipped;

  /**
   * {@code isStatic}: the method has no receiver, so its arguments start at slot 0; its advice must
   * then pass nothing of {@code this} ({@link Advice.Pass#needsThis}).
   */
  AroundMethod(
      MethodVisitor next,
      Advice advice,
      String owner,
      String descriptor,
      boolean frames,
      boolean isStatic) {
    super(next);
    this.advice = advice;
    this.owner = owner;
    this.frames = frames;
    this.args = Type.getArgumentTypes(descriptor);
    this.returnType = Type.getReturnType(descriptor);
    this.argSlot = new int[args.length];
    int slot = isStatic ? 0 : 1;
    for (int i = 0; i < args.length; i++) {
      argSlot[i] = slot;
      slot += args[i].getSize();
    }
    this.argsSize = slot;

    List<Object> own = new ArrayList<Object>();
    int next0 = argsSize;
    tokenSlot = next0++;
    own.add(OBJECT);
    if (advice.timed) {
      startSlot = next0;
      next0 += 2;
      own.add(Opcodes.LONG);
    } else {
      startSlot = -1;
    }
    boolean needsThis = false;
    boolean[] needsArg = new boolean[args.length];
    for (Advice.Pass p : advice.exitArgs) {
      needsThis |= p.needsThis();
      if ((p.kind == Advice.Pass.Kind.ARG || p.kind == Advice.Pass.Kind.ARG_OR_NULL)
          && p.index < args.length) {
        needsArg[p.index] = true;
      }
    }
    if (needsThis) {
      thisCopy = next0++;
      own.add(owner);
    } else {
      thisCopy = -1;
    }
    argCopy = new int[args.length];
    for (int i = 0; i < args.length; i++) {
      if (needsArg[i]) {
        argCopy[i] = next0;
        next0 += args[i].getSize();
        own.add(AsmValues.frameType(args[i]));
      } else {
        argCopy[i] = -1;
      }
    }
    returnSlot = next0;
    for (int i = 0; i < returnType.getSize(); i++) {
      own.add(Opcodes.TOP);
    }
    next0 += returnType.getSize();
    exceptionSlot = next0++;
    own.add(Opcodes.TOP);
    this.shift = next0 - argsSize;
    this.ownLocals = own.toArray();
    if (!advice.enterOnly()) {
      moveLocals(frames, argsSize, shift, ownLocals);
    }
  }

  // The woven code at entry.

  @Override
  public void visitCode() {
    super.visitCode();
    if (advice.enterOnly()) {
      pushAll(advice.enterArgs, false);
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC, advice.owner, advice.enter, advice.enterDescriptor(), false);
      mv.visitInsn(Opcodes.POP);
      return;
    }
    if (advice.enter != null) {
      pushAll(advice.enterArgs, false);
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC, advice.owner, advice.enter, advice.enterDescriptor(), false);
    } else {
      mv.visitInsn(Opcodes.ACONST_NULL);
    }
    mv.visitVarInsn(Opcodes.ASTORE, tokenSlot);
    if (advice.timed) {
      mv.visitVarInsn(Opcodes.ALOAD, tokenSlot);
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC, Advice.START_OWNER, Advice.START, Advice.START_DESCRIPTOR, false);
      mv.visitVarInsn(Opcodes.LSTORE, startSlot);
    }
    if (thisCopy >= 0) {
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitVarInsn(Opcodes.ASTORE, thisCopy);
    }
    for (int i = 0; i < args.length; i++) {
      if (argCopy[i] >= 0) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), argSlot[i]);
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), argCopy[i]);
      }
    }
    if (advice.skip != Advice.Skip.NEVER) {
      skipped = new Label();
      mv.visitVarInsn(Opcodes.ALOAD, tokenSlot);
      if (advice.skip == Advice.Skip.IF_BLOCKED) {
        mv.visitTypeInsn(Opcodes.INSTANCEOF, BLOCKED);
        mv.visitJumpInsn(Opcodes.IFNE, skipped);
      } else {
        mv.visitJumpInsn(Opcodes.IFNONNULL, skipped);
      }
    }
    openRange();
  }

  // Returns of the original.

  @Override
  public void visitInsn(int opcode) {
    if (opcode < Opcodes.IRETURN || opcode > Opcodes.RETURN || advice.enterOnly()) {
      code();
      super.visitInsn(opcode);
      return;
    }
    closeRange();
    if (advice.exit != null) {
      if (returnType.getSort() != Type.VOID) {
        mv.visitVarInsn(returnType.getOpcode(Opcodes.ISTORE), returnSlot);
      }
      callExit(returnType.getSort() == Type.OBJECT || returnType.getSort() == Type.ARRAY);
      if (returnType.getSort() != Type.VOID) {
        mv.visitVarInsn(returnType.getOpcode(Opcodes.ILOAD), returnSlot);
      }
    }
    mv.visitInsn(opcode);
    openRange();
  }

  /**
   * Calls the exit method with the return value (in its slot, when a reference) and applies its
   * result.
   */
  private void callExit(boolean reference) {
    pushExitPrefix();
    if (reference) {
      mv.visitVarInsn(Opcodes.ALOAD, returnSlot);
    } else {
      mv.visitInsn(Opcodes.ACONST_NULL);
    }
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, advice.owner, advice.exit, advice.exitDescriptor(), false);
    if (reference) {
      mv.visitTypeInsn(Opcodes.CHECKCAST, returnType.getInternalName());
      mv.visitVarInsn(Opcodes.ASTORE, returnSlot);
    } else {
      mv.visitInsn(Opcodes.POP);
    }
  }

  // The handler and the skip path, after the original's last instruction.

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (advice.enterOnly()) {
      super.visitMaxs(maxStack + EXTRA_STACK, maxLocals);
      return;
    }
    closeRange();
    if (advice.thrown != null && !ranges.isEmpty()) {
      Label handler = new Label();
      for (Label[] range : ranges) {
        mv.visitTryCatchBlock(range[0], range[1], handler, "java/lang/Throwable");
      }
      mv.visitLabel(handler);
      frame(new Object[] {"java/lang/Throwable"});
      mv.visitVarInsn(Opcodes.ASTORE, exceptionSlot);
      pushExitPrefix();
      mv.visitVarInsn(Opcodes.ALOAD, exceptionSlot);
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC, advice.owner, advice.thrown, advice.thrownDescriptor(), false);
      if (advice.recovers && returnType.getSort() == Type.VOID) {
        Label answered = new Label();
        mv.visitInsn(Opcodes.DUP);
        mv.visitJumpInsn(Opcodes.IFNULL, answered);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitLabel(answered);
        frame(new Object[] {"java/lang/Throwable"});
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.RETURN);
      } else {
        mv.visitInsn(Opcodes.ATHROW);
      }
    }
    if (skipped != null) {
      mv.visitLabel(skipped);
      frame(new Object[0]);
      boolean reference = returnType.getSort() == Type.OBJECT || returnType.getSort() == Type.ARRAY;
      if (advice.exit != null) {
        if (reference) {
          mv.visitInsn(Opcodes.ACONST_NULL);
          mv.visitVarInsn(Opcodes.ASTORE, returnSlot);
        }
        callExit(reference);
      }
      if (reference) {
        mv.visitVarInsn(Opcodes.ALOAD, returnSlot);
      } else if (returnType.getSort() != Type.VOID) {
        mv.visitInsn(AsmValues.zero(returnType));
      }
      mv.visitInsn(returnType.getOpcode(Opcodes.IRETURN));
    }
    super.visitMaxs(maxStack + EXTRA_STACK, maxLocals + shift);
  }

  private void openRange() {
    rangeStart = new Label();
    mv.visitLabel(rangeStart);
    rangeHasCode = false;
  }

  private void closeRange() {
    if (rangeStart == null) {
      return;
    }
    if (rangeHasCode) {
      Label end = new Label();
      mv.visitLabel(end);
      ranges.add(new Label[] {rangeStart, end});
    }
    rangeStart = null;
  }

  @Override
  void code() {
    rangeHasCode = true;
  }

  /** A frame for the woven code's own branch targets: the original's slots unused, then ours. */
  private void frame(Object[] stack) {
    if (!frames) {
      return;
    }
    Object[] locals = new Object[argsSize + ownLocals.length];
    for (int i = 0; i < argsSize; i++) {
      locals[i] = Opcodes.TOP;
    }
    System.arraycopy(ownLocals, 0, locals, argsSize, ownLocals.length);
    mv.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
  }

  // Pushing the bridge methods' arguments.

  /** token, [start], then the exit arguments from the copies made at entry. */
  private void pushExitPrefix() {
    mv.visitVarInsn(Opcodes.ALOAD, tokenSlot);
    if (advice.timed) {
      mv.visitVarInsn(Opcodes.LLOAD, startSlot);
    }
    pushAll(advice.exitArgs, true);
  }

  private void pushAll(Advice.Pass[] passes, boolean fromCopies) {
    for (Advice.Pass p : passes) {
      push(p, fromCopies);
    }
  }

  private void push(Advice.Pass p, boolean fromCopies) {
    int self = fromCopies ? thisCopy : 0;
    switch (p.kind) {
      case THIS:
        mv.visitVarInsn(Opcodes.ALOAD, self);
        break;
      case SITE:
        mv.visitVarInsn(Opcodes.ALOAD, self);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OBJECT, "getClass", "()Ljava/lang/Class;", false);
        break;
      case INT_FIELD:
        mv.visitVarInsn(Opcodes.ALOAD, self);
        mv.visitFieldInsn(Opcodes.GETFIELD, owner, p.field, "I");
        break;
      case CONSTANT:
        mv.visitLdcInsn(Integer.valueOf(p.index));
        break;
      case ARG:
      case ARG_OR_NULL:
        if (p.index >= args.length) {
          mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
          Type t = args[p.index];
          mv.visitVarInsn(
              t.getOpcode(Opcodes.ILOAD), fromCopies ? argCopy[p.index] : argSlot[p.index]);
          if (t.getSort() < Type.ARRAY && p.descriptor.charAt(0) == 'L') {
            AsmValues.box(mv, t);
          }
        }
        break;
      default:
        throw new IllegalStateException(String.valueOf(p.kind));
    }
  }
}
