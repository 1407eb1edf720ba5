package io.levee.agent.instrument;

import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * A method visitor told of every instruction of the original that passes through it, by {@link
 * #code()}, before passing it on unchanged: {@link AroundMethod} needs to know whether a stretch
 * between two returns holds any code (an empty one cannot be in a try range). The instructions it
 * changes itself (locals, returns) it overrides and reports there.
 */
abstract class CodeTracking extends MethodVisitor {
  CodeTracking(MethodVisitor next) {
    super(Opcodes.ASM9, next);
  }

  /** An instruction of the original is about to be passed on. */
  abstract void code();

  @Override
  public void visitIntInsn(int opcode, int operand) {
    code();
    super.visitIntInsn(opcode, operand);
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    code();
    super.visitTypeInsn(opcode, type);
  }

  @Override
  public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
    code();
    super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
  }

  @Override
  public void visitMethodInsn(
      int opcode, String methodOwner, String name, String descriptor, boolean isInterface) {
    code();
    super.visitMethodInsn(opcode, methodOwner, name, descriptor, isInterface);
  }

  @Override
  public void visitInvokeDynamicInsn(
      String name, String descriptor, Handle bootstrap, Object... arguments) {
    code();
    super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    code();
    super.visitJumpInsn(opcode, label);
  }

  @Override
  public void visitLdcInsn(Object value) {
    code();
    super.visitLdcInsn(value);
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
    code();
    super.visitTableSwitchInsn(min, max, dflt, labels);
  }

  @Override
  public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
    code();
    super.visitLookupSwitchInsn(dflt, keys, labels);
  }

  @Override
  public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
    code();
    super.visitMultiANewArrayInsn(descriptor, numDimensions);
  }
}
