package io.levee.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a rules file for one forked application under {@code target/it-work}. */
public final class RulesFile {
  private RulesFile() {}

  public static Path write(String name, String yaml) {
    try {
      return Files.writeString(
          TestPaths.workDir().resolve(name + ".yaml"), yaml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
