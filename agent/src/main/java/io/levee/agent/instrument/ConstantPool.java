package io.levee.agent.instrument;

/**
 * The sizes of a class file's constant pool entries (JVMS 4.4), for the readers that walk the pool
 * without ASM: {@link ClassHeader} on every class the JVM loads, and the servlet integration's
 * renaming of its calls to the jakarta API.
 */
public final class ConstantPool {
  private ConstantPool() {}

  /**
   * The bytes of the entry at {@code p} of {@code b}, its tag included; -1 for a tag this reader
   * does not know.
   */
  public static int entryLength(byte[] b, int p) {
    switch (b[p] & 0xFF) {
      case 1: // Utf8
        return 3 + (((b[p + 1] & 0xFF) << 8) | (b[p + 2] & 0xFF));
      case 7: // Class
      case 8: // String
      case 16: // MethodType
      case 19: // Module
      case 20: // Package
        return 3;
      case 15: // MethodHandle
        return 4;
      case 3: // Integer
      case 4: // Float
      case 9: // Fieldref
      case 10: // Methodref
      case 11: // InterfaceMethodref
      case 12: // NameAndType
      case 17: // Dynamic
      case 18: // InvokeDynamic
        return 5;
      case 5: // Long
      case 6: // Double
        return 9;
      default:
        return -1;
    }
  }

  /** The pool indexes the entry at {@code p} takes: two for a long or a double, else one. */
  public static int slots(byte[] b, int p) {
    int tag = b[p] & 0xFF;
    return tag == 5 || tag == 6 ? 2 : 1;
  }
}
