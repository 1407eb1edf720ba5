package io.levee.it.deploy;

import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A deployment recipe of the manual ({@code docs/operations.md}): the text of the one fenced block
 * whose info string names it, {@code ```sh recipe=tomcat-setenv}, so that a test runs what a reader
 * copies. A recipe names the places of a real installation ({@code /opt/levee/levee-agent.jar});
 * {@link #with} puts the test's own in their place, and fails when the recipe no longer names one,
 * so that a change of the manual cannot leave the test running something else.
 */
public record DocRecipe(String name, String text) {
  static final Path MANUAL = TestPaths.root().resolve("docs/operations.md");

  public static DocRecipe named(String name) {
    List<String> lines;
    try {
      lines = Files.readAllLines(MANUAL, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String fence = lines.get(i).strip();
      if (!fence.startsWith("```")
          || !List.of(fence.substring(3).split("\\s+")).contains("recipe=" + name)) {
        continue;
      }
      StringBuilder body = new StringBuilder();
      for (i++; i < lines.size() && !lines.get(i).strip().startsWith("```"); i++) {
        body.append(lines.get(i)).append('\n');
      }
      found.add(body.toString());
    }
    if (found.size() != 1) {
      throw new IllegalStateException(
          "expected one block fenced with recipe="
              + name
              + " in "
              + MANUAL
              + ", found "
              + found.size());
    }
    return new DocRecipe(name, found.get(0));
  }

  /** The recipe with every {@code placeholder} replaced by {@code value}. */
  public DocRecipe with(String placeholder, Object value) {
    if (!text.contains(placeholder)) {
      throw new IllegalStateException(
          "the recipe " + name + " no longer names " + placeholder + ":\n" + text);
    }
    return new DocRecipe(name, text.replace(placeholder, value.toString()));
  }

  /** Writes the recipe to {@code file}, e.g. a start script. */
  public Path writeTo(Path file) {
    try {
      Files.createDirectories(file.getParent());
      return Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
