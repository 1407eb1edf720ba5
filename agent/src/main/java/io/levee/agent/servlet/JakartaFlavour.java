package io.levee.agent.servlet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Makes the jakarta.servlet flavour of a class compiled against javax.servlet by renaming in its
 * constant pool, where every class name, descriptor, signature and string of a class file lives:
 * the servlet API's package and the class's own name. Nothing else in a class file refers to the
 * pool by byte offset, so the rest is copied as it is. This keeps one source for both servlet APIs,
 * which differ only in their package.
 */
final class JakartaFlavour {
  private static final String JAVAX = "javax/servlet/";
  private static final String JAKARTA = "jakarta/servlet/";

  private JakartaFlavour() {}

  /**
   * {@code classFile} of {@code from} (an internal name), as class {@code to} on jakarta.servlet.
   */
  static byte[] of(byte[] classFile, String from, String to) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(in.readInt()); // magic
    out.writeInt(in.readInt()); // minor and major version
    int count = in.readUnsignedShort();
    out.writeShort(count);
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      out.writeByte(tag);
      if (tag == 1) {
        out.writeUTF(rename(in.readUTF(), from, to));
      } else {
        int size = entrySize(tag);
        byte[] entry = new byte[size];
        in.readFully(entry);
        out.write(entry);
        if (tag == 5 || tag == 6) {
          i++; // a long or double takes two slots
        }
      }
    }
    byte[] rest = new byte[in.available()];
    in.readFully(rest);
    out.write(rest);
    out.flush();
    return bytes.toByteArray();
  }

  static String rename(String value, String from, String to) {
    return value.replace(from, to).replace(JAVAX, JAKARTA);
  }

  /** The bytes after the tag of a constant pool entry other than UTF-8. */
  private static int entrySize(int tag) throws IOException {
    switch (tag) {
      case 7: // class
      case 8: // string
      case 16: // method type
      case 19: // module
      case 20: // package
        return 2;
      case 15: // method handle
        return 3;
      case 3: // int
      case 4: // float
      case 9: // field
      case 10: // method
      case 11: // interface method
      case 12: // name and type
      case 17: // dynamic
      case 18: // invokedynamic
        return 4;
      case 5: // long
      case 6: // double
        return 8;
      default:
        throw new IOException("unknown constant pool tag " + tag);
    }
  }
}
