package io.levee.agent.servlet;

import io.levee.agent.instrument.ConstantPool;
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
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(classFile, 0, 10); // magic, versions, pool count
    int count = ((classFile[8] & 0xFF) << 8) | (classFile[9] & 0xFF);
    int p = 10;
    for (int i = 1; i < count; ) {
      int length = ConstantPool.entryLength(classFile, p);
      if (length < 0) {
        throw new IOException("unknown constant pool tag " + (classFile[p] & 0xFF));
      }
      if (classFile[p] == 1) {
        String value =
            new DataInputStream(new ByteArrayInputStream(classFile, p + 1, length - 1)).readUTF();
        out.writeByte(1);
        out.writeUTF(rename(value, from, to));
      } else {
        out.write(classFile, p, length);
      }
      i += ConstantPool.slots(classFile, p);
      p += length;
    }
    out.write(classFile, p, classFile.length - p);
    out.flush();
    return bytes.toByteArray();
  }

  static String rename(String value, String from, String to) {
    return value.replace(from, to).replace(JAVAX, JAKARTA);
  }
}
