package io.levee.it.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A systemd service unit, read as systemd reads the parts a unit for a JVM needs (systemd.service,
 * "Command lines"; systemd.exec, {@code Environment=}): no shell is involved. {@code Environment=}
 * holds assignments separated by spaces, each quoted as a whole or in part; {@code ExecStart=} is
 * split into words the same way, then a word that is exactly {@code $NAME} becomes the variable's
 * value split at whitespace (zero or more arguments) and {@code ${NAME}} within a word its whole
 * value. What systemd would read differently from this (a backslash, a {@code %} specifier, a
 * prefix such as {@code -} or {@code @} before the program, a line continuation) is refused rather
 * than guessed at, so that a test never runs a line other than systemd would.
 */
final class SystemdUnit {
  private static final Pattern WHOLE_WORD_VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern BRACED_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private final Map<String, String> environment = new LinkedHashMap<>();
  private final List<String> execStart = new ArrayList<>();

  private SystemdUnit() {}

  static SystemdUnit parse(String text) {
    SystemdUnit unit = new SystemdUnit();
    String section = "";
    String execLine = null;
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.endsWith("\\")) {
        throw new IllegalArgumentException("a continued line is not read here: " + line);
      }
      if (line.startsWith("[")) {
        section = line;
        continue;
      }
      int equals = line.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException("not a key=value line: " + line);
      }
      String key = line.substring(0, equals).strip();
      String value = line.substring(equals + 1).strip();
      if (!section.equals("[Service]")) {
        continue;
      }
      if (key.equals("Environment")) {
        for (String assignment : words(value)) {
          int eq = assignment.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("not an assignment: " + assignment);
          }
          unit.environment.put(assignment.substring(0, eq), assignment.substring(eq + 1));
        }
      } else if (key.equals("ExecStart")) {
        if (execLine != null) {
          throw new IllegalArgumentException("a service of type simple has one ExecStart=");
        }
        execLine = value;
      }
    }
    if (execLine == null) {
      throw new IllegalArgumentException("no ExecStart= in [Service]");
    }
    if ("@-:+!|".indexOf(execLine.charAt(0)) >= 0) {
      throw new IllegalArgumentException(
          "a prefix before the program is not read here: " + execLine);
    }
    for (String word : words(execLine)) {
      unit.execStart.addAll(expand(word, unit.environment));
    }
    return unit;
  }

  /** The variables {@code Environment=} sets, in the order given (a later one wins). */
  Map<String, String> environment() {
    return environment;
  }

  /** The program and its arguments, as systemd passes them to {@code execve}. */
  List<String> execStart() {
    return execStart;
  }

  private static List<String> expand(String word, Map<String, String> env) {
    Matcher whole = WHOLE_WORD_VARIABLE.matcher(word);
    if (whole.matches()) {
      String value = env.getOrDefault(whole.group(1), "").strip();
      return value.isEmpty() ? List.of() : List.of(value.split("\\s+"));
    }
    Matcher braced = BRACED_VARIABLE.matcher(word);
    StringBuilder out = new StringBuilder();
    while (braced.find()) {
      braced.appendReplacement(
          out, Matcher.quoteReplacement(env.getOrDefault(braced.group(1), "")));
    }
    braced.appendTail(out);
    if (out.indexOf("$") >= 0) {
      throw new IllegalArgumentException("a $ systemd would read otherwise: " + word);
    }
    return List.of(out.toString());
  }

  /** Splits at unquoted whitespace; quotes group and are removed. */
  private static List<String> words(String value) {
    if (value.indexOf('\\') >= 0 || value.indexOf('%') >= 0) {
      throw new IllegalArgumentException("escapes and specifiers are not read here: " + value);
    }
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (char c : value.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("an unclosed quote: " + value);
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}
