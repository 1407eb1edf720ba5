package io.levee.it.lifecycle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * A class file as text that does not depend on how the JVM laid it out: the declared members and
 * every instruction with its operands resolved (owner, name, descriptor, constant), labels numbered
 * in order. Two class files with the same code give the same text even when their constant pools
 * differ, which they do after a class was redefined (the JVM merges the old and new pools, and
 * newer JDKs rebuild the class file from that). Read with the ASM the application's own ByteBuddy
 * carries; debug attributes and stack map frames are left out.
 */
public final class CanonicalBytecode {
  private CanonicalBytecode() {}

  /** The SHA-256 of the class file's text, in hex: what {@link BytecodeProbe} reports. */
  public static String digest(byte[] classFile) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(of(classFile).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String of(byte[] classFile) {
    StringBuilder text = new StringBuilder();
    new ClassReader(classFile)
        .accept(new Members(text), ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return text.toString();
  }

  private static final class Members extends ClassVisitor {
    private final StringBuilder text;

    Members(StringBuilder text) {
      super(Opcodes.ASM9);
      this.text = text;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      text.append("class ")
          .append(access)
          .append(' ')
          .append(name)
          .append(" extends ")
          .append(superName);
      for (String i : interfaces) {
        text.append(' ').append(i);
      }
      text.append('\n');
    }

    @Override
    public net.bytebuddy.jar.asm.FieldVisitor visitField(
        int access, String name, String descriptor, String signature, Object value) {
      text.append("field ").append(access).append(' ').append(name).append(descriptor).append('\n');
      return null;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      text.append("method ")
          .append(access)
          .append(' ')
          .append(name)
          .append(descriptor)
          .append('\n');
      return new Instructions(text);
    }
  }

  private static final class Instructions extends MethodVisitor {
    private final StringBuilder text;
    private final Map<Label, Integer> labels = new IdentityHashMap<>();

    Instructions(StringBuilder text) {
      super(Opcodes.ASM9);
      this.text = text;
    }

    private void line(Object... parts) {
      text.append(' ');
      for (Object part : parts) {
        text.append(' ').append(part instanceof Label l ? "L" + label(l) : String.valueOf(part));
      }
      text.append('\n');
    }

    private int label(Label l) {
      return labels.computeIfAbsent(l, k -> labels.size());
    }

    @Override
    public void visitInsn(int opcode) {
      line(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      line(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      line(opcode, var);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      line(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      line(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      line(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(
        String name, String descriptor, Handle bootstrap, Object... arguments) {
      line("indy", name, descriptor, bootstrap, java.util.Arrays.deepToString(arguments));
    }

    @Override
    public void visitJumpInsn(int opcode, Label target) {
      line(opcode, target);
    }

    @Override
    public void visitLabel(Label l) {
      line(l);
    }

    @Override
    public void visitLdcInsn(Object value) {
      line("ldc", value.getClass().getSimpleName(), value);
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      line("iinc", var, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... targets) {
      line("tableswitch", min, max, dflt, targets.length);
      for (Label t : targets) {
        line(t);
      }
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] targets) {
      line("lookupswitch", dflt, java.util.Arrays.toString(keys));
      for (Label t : targets) {
        line(t);
      }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
      line("multianewarray", descriptor, dimensions);
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      line("try", start, end, handler, type);
    }
  }
}
