package io.levee.agent.method;

import net.bytebuddy.jar.asm.Type;

/** Method descriptors as a user reads them in a message. */
final class Descriptors {
  private Descriptors() {}

  /** {@code (java.lang.String, int)} for {@code (Ljava/lang/String;I)V}. */
  static String parameters(String descriptor) {
    StringBuilder s = new StringBuilder("(");
    Type[] args = Type.getArgumentTypes(descriptor);
    for (int i = 0; i < args.length; i++) {
      s.append(i == 0 ? "" : ", ").append(args[i].getClassName());
    }
    return s.append(')').toString();
  }

  /** {@code (java.lang.String, int)} for the parameter types of a loaded method. */
  static String parameters(Class<?>[] types) {
    StringBuilder s = new StringBuilder("(");
    for (int i = 0; i < types.length; i++) {
      s.append(i == 0 ? "" : ", ").append(types[i].getName());
    }
    return s.append(')').toString();
  }
}
