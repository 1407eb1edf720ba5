package io.levee.agent.instrument;

import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.TypePath;

/**
 * The original method's locals moved up past the woven code's own, which go right after the
 * arguments: every local instruction, local variable entry and frame of the original is rewritten
 * once {@link #moveLocals} has said where. Until then (an enter-only advice, which adds no locals)
 * everything passes through unchanged.
 */
abstract class MovedLocals extends CodeTracking {
  private boolean moving;
  private boolean frames;
  private int argsSize;
  private int shift;
  private Object[] ownLocals;

  MovedLocals(MethodVisitor next) {
    super(next);
  }

  /**
   * From now on the original's locals from {@code argsSize} on move up by {@code ownLocals}' slots
   * ({@code shift}), and its frames (written when {@code frames}) get {@code ownLocals} inserted
   * after the arguments.
   */
  final void moveLocals(boolean frames, int argsSize, int shift, Object[] ownLocals) {
    this.moving = true;
    this.frames = frames;
    this.argsSize = argsSize;
    this.shift = shift;
    this.ownLocals = ownLocals;
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    if (!moving || !frames) {
      super.visitFrame(type, numLocal, local, numStack, stack);
      return;
    }
    Object[] locals = AsmValues.insertLocals(local, numLocal, argsSize, ownLocals);
    super.visitFrame(Opcodes.F_NEW, locals.length, locals, numStack, stack);
  }

  @Override
  public void visitVarInsn(int opcode, int var) {
    code();
    super.visitVarInsn(opcode, moved(var));
  }

  @Override
  public void visitIincInsn(int var, int increment) {
    code();
    super.visitIincInsn(moved(var), increment);
  }

  @Override
  public void visitLocalVariable(
      String name, String descriptor, String signature, Label start, Label end, int index) {
    super.visitLocalVariable(name, descriptor, signature, start, end, moved(index));
  }

  @Override
  public AnnotationVisitor visitLocalVariableAnnotation(
      int typeRef,
      TypePath typePath,
      Label[] start,
      Label[] end,
      int[] index,
      String descriptor,
      boolean visible) {
    int[] movedIndex = new int[index.length];
    for (int i = 0; i < index.length; i++) {
      movedIndex[i] = moved(index[i]);
    }
    return super.visitLocalVariableAnnotation(
        typeRef, typePath, start, end, movedIndex, descriptor, visible);
  }

  private int moved(int var) {
    return !moving || var < argsSize ? var : var + shift;
  }
}
