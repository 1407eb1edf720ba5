package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Evidence that the monitor run's rules decided on the container's requests, not only that classes
 * were woven: the agent's periodic summary of what it would have blocked. The monitor rules allow
 * one page a second, so a list of requests sent back to back always has some it would have blocked.
 */
final class MonitorDecisions {
  /**
   * The summary line for the rules' page resource, e.g. {@code (monitor): every-page
   * rate-limit=13}.
   */
  private static final Pattern PAGES =
      Pattern.compile("would have blocked in the last \\S+ \\(monitor\\): (.*, )?every-page ");

  /**
   * The summary is written every 10 s from the agent's start and not at exit, and a container run
   * can be shorter than that; so the run waits for the next summary, two periods at most.
   */
  private static final Duration WAIT = Duration.ofSeconds(25);

  private MonitorDecisions() {}

  /** Waits until the monitor run's log of {@code subject} shows decisions on pages, or gives up. */
  static void await(String subject) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!seen(subject) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  static boolean seen(String subject) {
    return PAGES.matcher(Way.MONITOR.agentLogText(subject)).find();
  }
}
