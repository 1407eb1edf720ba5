package io.levee.it.corpus;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Evidence that the monitor run's rules decided on a subject's calls, not only that classes were
 * woven: the agent's periodic summary of what it would have blocked, which names each resource with
 * its count per reason, e.g. {@code would have blocked in the last 10s (monitor): every-page
 * rate-limit=13, containers rate-limit=308}. The monitor rules allow one call a second per
 * resource, so calls made back to back always have some it would have blocked.
 */
public final class MonitorDecisions {
  /**
   * The summary is written every 10 s from the agent's start and not at exit, and a run can be
   * shorter than that; so the run waits for the next summary, two periods at most.
   */
  private static final Duration WAIT = Duration.ofSeconds(25);

  private MonitorDecisions() {}

  /**
   * Waits until the monitor run's log of {@code subject} shows decisions of every one of {@code
   * resources}, or gives up.
   */
  public static void await(String subject, String... resources) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!missing(subject, resources).isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Those of {@code resources} that no summary of the monitor run of {@code subject} names. */
  public static List<String> missing(String subject, String... resources) {
    String log = Way.MONITOR.agentLogText(subject);
    return Arrays.stream(resources)
        .filter(r -> !summary(r).matcher(log).find())
        .collect(Collectors.toList());
  }

  /** A summary line naming {@code resource}, e.g. {@code (monitor): ..., spring rate-limit=}. */
  private static Pattern summary(String resource) {
    return Pattern.compile(
        "would have blocked in the last \\S+ \\(monitor\\): (.*, )?"
            + Pattern.quote(resource)
            + " [a-z-]+=");
  }
}
