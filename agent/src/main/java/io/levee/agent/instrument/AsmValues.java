package io.levee.agent.instrument;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/** How the woven code writes values of a type (boxing, frame entries, zeros) and its frames. */
final class AsmValues {
  private AsmValues() {}

  /**
   * An expanded frame's locals with {@code own} inserted after the {@code argsSize} slots of the
   * receiver and the arguments (padded with {@code TOP} if the frame lists fewer).
   */
  static Object[] insertLocals(Object[] local, int numLocal, int argsSize, Object[] own) {
    java.util.List<Object> locals =
        new java.util.ArrayList<Object>(numLocal + own.length + argsSize);
    int slots = 0;
    int i = 0;
    while (i < numLocal && slots < argsSize) {
      Object t = local[i++];
      locals.add(t);
      slots += t == Opcodes.LONG || t == Opcodes.DOUBLE ? 2 : 1;
    }
    while (slots < argsSize) {
      locals.add(Opcodes.TOP);
      slots++;
    }
    for (Object t : own) {
      locals.add(t);
    }
    while (i < numLocal) {
      locals.add(local[i++]);
    }
    return locals.toArray();
  }

  /** A primitive argument passed as an {@code Object}: boxed as the compiler would. */
  static void box(MethodVisitor mv, Type t) {
    Type boxed;
    switch (t.getSort()) {
      case Type.BOOLEAN:
        boxed = Type.getType(Boolean.class);
        break;
      case Type.CHAR:
        boxed = Type.getType(Character.class);
        break;
      case Type.BYTE:
        boxed = Type.getType(Byte.class);
        break;
      case Type.SHORT:
        boxed = Type.getType(Short.class);
        break;
      case Type.INT:
        boxed = Type.getType(Integer.class);
        break;
      case Type.FLOAT:
        boxed = Type.getType(Float.class);
        break;
      case Type.LONG:
        boxed = Type.getType(Long.class);
        break;
      default:
        boxed = Type.getType(Double.class);
        break;
    }
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        boxed.getInternalName(),
        "valueOf",
        Type.getMethodDescriptor(boxed, t),
        false);
  }

  static Object frameType(Type t) {
    switch (t.getSort()) {
      case Type.BOOLEAN:
      case Type.CHAR:
      case Type.BYTE:
      case Type.SHORT:
      case Type.INT:
        return Opcodes.INTEGER;
      case Type.FLOAT:
        return Opcodes.FLOAT;
      case Type.LONG:
        return Opcodes.LONG;
      case Type.DOUBLE:
        return Opcodes.DOUBLE;
      case Type.ARRAY:
        return t.getDescriptor();
      default:
        return t.getInternalName();
    }
  }

  static int zero(Type t) {
    switch (t.getSort()) {
      case Type.LONG:
        return Opcodes.LCONST_0;
      case Type.FLOAT:
        return Opcodes.FCONST_0;
      case Type.DOUBLE:
        return Opcodes.DCONST_0;
      default:
        return Opcodes.ICONST_0;
    }
  }
}
