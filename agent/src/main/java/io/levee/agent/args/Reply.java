package io.levee.agent.args;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The answer to a command, written to the file the command line named ({@code reply=}) when the
 * command is done: a first line {@code ok} or {@code failed}, then the text to print. The command
 * line created that file's directory for its user only; the file is written aside with mode 600 and
 * renamed into place, so a reader never sees half an answer.
 *
 * <p>Bootstrap-free, so that {@code LeveeAgent} (the entry) can answer before anything is loaded.
 * Concurrency: one command thread uses it.
 */
public final class Reply {
  public static final String OK = "ok";
  public static final String FAILED = "failed";

  private final String file;
  private final StringBuilder text = new StringBuilder();
  private boolean failed;

  public Reply(String file) {
    this.file = file;
  }

  public Reply line(String line) {
    text.append(line).append('\n');
    return this;
  }

  public Reply fail(String line) {
    failed = true;
    return line(line);
  }

  public boolean failed() {
    return failed;
  }

  public String text() {
    return text.toString();
  }

  /** Writes the answer; does nothing when nobody asked for one. */
  public void write() throws IOException {
    if (file == null || file.isEmpty()) {
      return;
    }
    Path target = Paths.get(file);
    Path dir = target.toAbsolutePath().getParent();
    Path aside = dir.resolve(target.getFileName() + ".part");
    Files.deleteIfExists(aside);
    try {
      Files.createFile(
          aside,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createFile(aside);
    }
    OutputStream out = Files.newOutputStream(aside);
    try {
      out.write(((failed ? FAILED : OK) + "\n" + text).getBytes(Charset.forName("UTF-8")));
    } finally {
      out.close();
    }
    Files.move(aside, target, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public String toString() {
    return (failed ? FAILED : OK) + "\n" + text;
  }
}
