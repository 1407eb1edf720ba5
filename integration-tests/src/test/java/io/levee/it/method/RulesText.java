package io.levee.it.method;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The rules files the method tests write, and where a text stands in one. */
final class RulesText {
  private RulesText() {}

  /** A file of {@code resources} (YAML list items), not reloaded on its own. */
  static String file(String... resources) {
    return "version: 1\nsettings: { reload: 0 }\nresources:\n"
        + Stream.of(resources).collect(Collectors.joining());
  }

  /** {@code line:column} of the first {@code text} in {@code yaml}, both from 1. */
  static String where(String yaml, String text) {
    List<String> lines = yaml.lines().collect(Collectors.toList());
    for (int i = 0; i < lines.size(); i++) {
      int column = lines.get(i).indexOf(text);
      if (column >= 0) {
        return (i + 1) + ":" + (column + 1);
      }
    }
    throw new IllegalArgumentException(text);
  }
}
