package io.levee.agent.instrument;

/**
 * The few facts of a class file that decide whether it can be a target: its super class and its
 * interfaces, and whether it declares a method a rule could weave, read straight from the bytes
 * without building a description. Reading them costs one pass over the constant pool and the member
 * headers, which is what lets the agent wave through the thousands of classes an application loads.
 *
 * <p>Names are binary names with dots ({@code java.lang.Object}). A class file this reader does not
 * understand (truncated, an unknown constant tag) gives {@code null}: the class is then left as it
 * is.
 */
final class ClassHeader {
  private static final int ACC_INTERFACE = 0x0200;

  final String superName;
  final String[] interfaces;
  final boolean isInterface;

  private final byte[] bytes;
  private final int[] offsets;

  /** Where the fields, and after them the methods, start. */
  private final int members;

  private ClassHeader(
      String superName,
      String[] interfaces,
      boolean isInterface,
      byte[] bytes,
      int[] offsets,
      int members) {
    this.superName = superName;
    this.interfaces = interfaces;
    this.isInterface = isInterface;
    this.bytes = bytes;
    this.offsets = offsets;
    this.members = members;
  }

  /** What {@link #declaresAny} asks of each declared method. */
  interface MethodTest {
    boolean test(int access, String name, String descriptor);
  }

  /**
   * Whether {@code test} accepts one of the methods the class declares. False, too, for a class
   * file whose members cannot be read (then nothing of it could be woven either).
   */
  boolean declaresAny(MethodTest test) {
    try {
      byte[] b = bytes;
      int p = skipMembers(b, members);
      int methods = u2(b, p);
      p += 2;
      for (int i = 0; i < methods; i++) {
        int access = u2(b, p);
        String name = utf8(b, u2(b, p + 2));
        String descriptor = utf8(b, u2(b, p + 4));
        if (test.test(access, name, descriptor)) {
          return true;
        }
        p = skipAttributes(b, p + 6);
      }
      return false;
    } catch (RuntimeException malformed) {
      return false;
    }
  }

  /** The fields at {@code p}; returns where the methods start. */
  private static int skipMembers(byte[] b, int p) {
    int count = u2(b, p);
    p += 2;
    for (int i = 0; i < count; i++) {
      p = skipAttributes(b, p + 6);
    }
    return p;
  }

  /** The attribute count and attributes at {@code p}; returns where they end. */
  private static int skipAttributes(byte[] b, int p) {
    int count = u2(b, p);
    p += 2;
    for (int i = 0; i < count; i++) {
      p += 6 + u4(b, p + 2);
    }
    return p;
  }

  private String utf8(byte[] b, int index) {
    int entry = offsets[index];
    if ((b[entry] & 0xFF) != 1) {
      throw new IllegalArgumentException("not a name");
    }
    return decode(b, entry + 3, u2(b, entry + 1), false);
  }

  /** The header of {@code bytes}, or {@code null} if they are not a class file it can read. */
  static ClassHeader read(byte[] bytes) {
    try {
      return parse(bytes);
    } catch (RuntimeException malformed) {
      return null;
    }
  }

  private static ClassHeader parse(byte[] b) {
    if (b.length < 10 || u4(b, 0) != 0xCAFEBABE) {
      return null;
    }
    int count = u2(b, 8);
    // Where each constant starts; a Class entry points at the Utf8 entry holding its name.
    int[] offsets = new int[count];
    int p = 10;
    for (int i = 1; i < count; ) {
      offsets[i] = p;
      int length = ConstantPool.entryLength(b, p);
      if (length < 0) {
        return null;
      }
      i += ConstantPool.slots(b, p);
      p += length;
    }
    int access = u2(b, p);
    int superIndex = u2(b, p + 4);
    int interfaceCount = u2(b, p + 6);
    String[] interfaces = new String[interfaceCount];
    for (int i = 0; i < interfaceCount; i++) {
      interfaces[i] = className(b, offsets, u2(b, p + 8 + 2 * i));
    }
    String superName = superIndex == 0 ? null : className(b, offsets, superIndex);
    return new ClassHeader(
        superName,
        interfaces,
        (access & ACC_INTERFACE) != 0,
        b,
        offsets,
        p + 8 + 2 * interfaceCount);
  }

  private static String className(byte[] b, int[] offsets, int classIndex) {
    int classEntry = offsets[classIndex];
    if ((b[classEntry] & 0xFF) != 7) {
      throw new IllegalArgumentException("not a class constant");
    }
    int utf8 = offsets[u2(b, classEntry + 1)];
    if ((b[utf8] & 0xFF) != 1) {
      throw new IllegalArgumentException("not a name");
    }
    return decode(b, utf8 + 3, u2(b, utf8 + 1), true);
  }

  /** Decodes modified UTF-8; {@code dots}: an internal name's slashes become dots. */
  private static String decode(byte[] b, int from, int length, boolean dots) {
    char[] chars = new char[length];
    int n = 0;
    int p = from;
    int end = from + length;
    while (p < end) {
      int c = b[p] & 0xFF;
      if (c < 0x80) {
        chars[n++] = dots && c == '/' ? '.' : (char) c;
        p++;
      } else if ((c & 0xE0) == 0xC0) {
        chars[n++] = (char) (((c & 0x1F) << 6) | (b[p + 1] & 0x3F));
        p += 2;
      } else {
        chars[n++] = (char) (((c & 0x0F) << 12) | ((b[p + 1] & 0x3F) << 6) | (b[p + 2] & 0x3F));
        p += 3;
      }
    }
    return new String(chars, 0, n);
  }

  private static int u2(byte[] b, int p) {
    return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
  }

  private static int u4(byte[] b, int p) {
    return (u2(b, p) << 16) | u2(b, p + 2);
  }
}
