package io.levee.it.corpus.containers;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What legitimately differs between two runs of the same container, whatever the agent does, and is
 * replaced by a placeholder before the runs are compared. Nothing else is touched.
 */
final class Normalise {
  /** Tomcat's session ids: 32 hex digits (JSESSIONID, SessionExample's "Session ID"). */
  private static final Pattern TOMCAT_SESSION = Pattern.compile("\\b[0-9A-F]{32}\\b");

  /** Jetty's session ids: {@code node0<random>} plus the worker name {@code .node0}. */
  private static final Pattern JETTY_SESSION = Pattern.compile("\\bnode0[0-9a-z]+(\\.node0)?\\b");

  /** {@code java.util.Date#toString()}: SessionExample's creation and last access times. */
  private static final Pattern DATE_TO_STRING =
      Pattern.compile(
          "\\b[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{2}:\\d{2}:\\d{2} [A-Z]{2,5} \\d{4}\\b");

  /** {@code yyyy-MM-dd HH:mm:ss Z}: the time the async examples completed at. */
  private static final Pattern ISO_TIME =
      Pattern.compile(
          "\\b\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?( ?[+-]\\d{4}|Z)?\\b");

  /**
   * Milliseconds since the epoch (13 digits until 2286): include.jsp prints the clock. (Static
   * files' ETags carry their modification time too; the scratch copies keep the distribution's.)
   */
  private static final Pattern EPOCH_MILLIS = Pattern.compile("\\b1\\d{12}\\b");

  private Normalise() {}

  /**
   * {@code text} with the run's own port (each run listens on a free port of its own; the pages
   * that echo the Host header or the request URL show it) and scratch directory (each run has its
   * own base; a container's warnings may name files in it) replaced, and session ids and clock
   * readings, random or time-dependent by design, replaced.
   */
  static String text(String text, int port, Path base) {
    String result = text.replace(base.toAbsolutePath().toString(), "<base>");
    result = result.replaceAll("\\b" + port + "\\b", "<port>");
    result = TOMCAT_SESSION.matcher(result).replaceAll("<session>");
    result = JETTY_SESSION.matcher(result).replaceAll("<session>");
    result = DATE_TO_STRING.matcher(result).replaceAll("<date>");
    result = ISO_TIME.matcher(result).replaceAll("<time>");
    return EPOCH_MILLIS.matcher(result).replaceAll("<millis>");
  }
}
