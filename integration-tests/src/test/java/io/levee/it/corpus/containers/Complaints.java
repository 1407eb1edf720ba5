package io.levee.it.corpus.containers;

import io.levee.it.corpus.Transparency;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The warnings and errors a container logged to its console, and the exceptions it printed, without
 * the time and thread they came at, so that two runs can be compared: an agent that breaks a class
 * of the container shows up here even when the page still answers.
 */
final class Complaints {
  /** Tomcat's juli: {@code 02-Dec-2026 02:40:06.313 WARNING [main] source message}. */
  private static final Pattern JULI =
      Pattern.compile("^\\S+ \\S+ (WARNING|SEVERE) \\[[^\\]]*\\] (.*)$");

  /** Jetty: {@code 2026-12-02 02:40:06.313:WARN :oejs.Server:main: message}. */
  private static final Pattern JETTY =
      Pattern.compile("^\\S+ \\S+:(WARN|ERROR) ?:([^:]*):[^:]*:(.*)$");

  /** A stack trace's first line, wherever it was printed from. */
  private static final Pattern EXCEPTION =
      Pattern.compile("^(Exception in thread .*|\\S+(Exception|Error)(: .*)?)$");

  private Complaints() {}

  static List<String> in(String consoleOutput, int port, Path base) {
    return Transparency.withoutJvmNote(consoleOutput)
        .lines()
        .map(Complaints::complaint)
        .filter(c -> c != null)
        .map(c -> Normalise.text(c, port, base))
        .collect(Collectors.toList());
  }

  private static String complaint(String line) {
    Matcher juli = JULI.matcher(line);
    if (juli.matches()) {
      return juli.group(1) + " " + juli.group(2);
    }
    Matcher jetty = JETTY.matcher(line);
    if (jetty.matches()) {
      return jetty.group(1) + " " + jetty.group(2) + ":" + jetty.group(3);
    }
    return EXCEPTION.matcher(line).matches() ? line : null;
  }
}
