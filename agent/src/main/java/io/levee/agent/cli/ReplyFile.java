package io.levee.agent.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the agent's answer file. When root acts on another user's JVM, that user could put anything
 * in its place, so only a small regular file is read, never through a symbolic link: not a link to
 * a file root alone may read, nor a FIFO that blocks, nor a device without end.
 */
final class ReplyFile {
  /** Far above any answer (the status table of thousands of resources). */
  static final int MAX_BYTES = 1 << 20;

  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private ReplyFile() {}

  /** The answer's text; null when there is no answer file. */
  static String read(Path reply) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes =
          Files.readAttributes(reply, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException absent) {
      return null;
    }
    if (!attributes.isRegularFile()) {
      throw new IOException(reply + " is not a regular file");
    }
    if (attributes.size() > MAX_BYTES) {
      throw new IOException(reply + " is larger than " + MAX_BYTES + " bytes");
    }
    byte[] buffer = new byte[(int) attributes.size() + 1];
    int length = 0;
    // NOFOLLOW_LINKS again at the open, and a bounded read: the file may change after the checks.
    try (InputStream in =
        Channels.newInputStream(
            Files.newByteChannel(reply, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      while (length < buffer.length) {
        int n = in.read(buffer, length, buffer.length - length);
        if (n < 0) {
          break;
        }
        length += n;
      }
    }
    if (length == buffer.length) {
      throw new IOException(reply + " grew while it was read");
    }
    return new String(buffer, 0, length, UTF_8);
  }
}
