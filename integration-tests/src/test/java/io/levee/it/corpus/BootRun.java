package io.levee.it.corpus;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What one run of a Spring Boot application shows: the answers to the corpus's requests (status,
 * content type and body) and their other headers, its log from start to shutdown with what differs
 * from run to run taken out, its stderr and exit status.
 */
record BootRun(
    List<String> answers, List<String> headers, List<String> log, List<String> errors, int exit) {

  /**
   * Boot's console line, {@code <time> <level> <pid> --- [<thread>] <logger> : <message>}: the
   * time, process id and thread (a request may land on any of Tomcat's workers) are dropped.
   */
  private static final Pattern LINE =
      Pattern.compile("^\\d{4}-\\d\\d-\\d\\d[T ]\\S+\\s+(\\w+) \\d+ --- \\[[^\\]]*\\] (.*)$");

  /** Durations Boot and Spring log: {@code 226 ms}, {@code 3.2 seconds}. */
  private static final Pattern DURATION = Pattern.compile("\\b\\d+(\\.\\d+)? (ms|seconds)\\b");

  /** Boot 3's {@code (process running for 19.8)}, Boot 2's {@code (JVM running for 19.8)}. */
  private static final Pattern RUNNING_FOR =
      Pattern.compile("(process|JVM) running for \\d+(\\.\\d+)?");

  private static final Pattern PID = Pattern.compile("\\bPID \\d+");

  /**
   * Boot 2.7's warning that looking up the host name took over 200 ms, a clock reading like the
   * others but a whole line: a busy machine prints it in any way, or in none.
   */
  private static final Pattern SLOW_HOST_NAME =
      Pattern.compile(
          "StartupInfoLogger\\s+: InetAddress\\.getLocalHost\\(\\)\\.getHostName\\(\\) took ");

  /**
   * Tomcat's loggers: Tomcat logs through java.util.logging, which Boot bridges to its own log. On
   * SIGTERM the JDK's {@code LogManager} resets its handlers in a shutdown hook of its own, racing
   * Boot's hook that stops Tomcat, so Tomcat's shutdown lines appear in some runs and not in
   * others, with or without an agent.
   */
  private static final Pattern TOMCAT_LOGGER =
      Pattern.compile(
          "^\\w+ (o\\.apache\\.catalina|o\\.a\\.c\\.|org\\.apache\\.(catalina|coyote)|o\\.apache\\.coyote)");

  /**
   * {@code beforeStop} and {@code fromStop}: the log before SIGTERM and from it on; Tomcat's lines
   * after it are left out (see {@link #TOMCAT_LOGGER}).
   */
  static BootRun of(
      List<String> answers,
      List<String> headers,
      String beforeStop,
      String fromStop,
      String stderr,
      int port,
      int exit) {
    List<String> log =
        Stream.concat(
                normalised(beforeStop, port),
                normalised(fromStop, port).filter(l -> !TOMCAT_LOGGER.matcher(l).find()))
            .collect(Collectors.toList());
    List<String> errors = Transparency.withoutJvmNote(stderr).lines().collect(Collectors.toList());
    return new BootRun(answers, headers, log, errors, exit);
  }

  private static Stream<String> normalised(String text, int port) {
    return text.lines().filter(l -> !SLOW_HOST_NAME.matcher(l).find()).map(l -> normalise(l, port));
  }

  private static String normalise(String line, int port) {
    Matcher m = LINE.matcher(line);
    String text = m.matches() ? m.group(1) + " " + m.group(2) : line;
    text = DURATION.matcher(text).replaceAll("<n> $2");
    text = RUNNING_FOR.matcher(text).replaceAll("$1 running for <n>");
    text = PID.matcher(text).replaceAll("PID <pid>");
    return text.replaceAll("\\b" + port + "\\b", "<port>");
  }
}
