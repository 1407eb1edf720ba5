package io.levee.it.reliability;

import io.levee.it.support.ForkedApp;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transitions of one breaker as the agent logs them, each stamped with the moment this test
 * first saw the line: the agent's log carries no time, so a thread polls the application's stderr
 * every few milliseconds. Both ends of an interval are seen with the same delay, so differences are
 * accurate to about two poll periods.
 *
 * <p>Concurrency: the polling thread alone reads and records until {@link #stop()} joins it.
 */
final class BreakerTransitions {
  private static final long POLL_MILLIS = 5;

  /** One logged transition, {@code atNanos} on the test's {@link System#nanoTime()}. */
  record Transition(String from, String to, long atNanos) {}

  private final ForkedApp app;
  private final Pattern line;
  private final List<Transition> seen = new ArrayList<>();
  private final Thread poller;
  private volatile boolean running = true;
  private int linesSeen;

  BreakerTransitions(ForkedApp app, String resource) {
    this.app = app;
    this.line =
        Pattern.compile("circuit breaker " + Pattern.quote(resource) + ": (\\S+) -> (\\S+)");
    this.poller = new Thread(this::poll, "breaker-log-poller");
    poller.setDaemon(true);
    poller.start();
  }

  List<Transition> stop() throws InterruptedException {
    running = false;
    poller.join(5_000);
    readNewLines();
    return seen;
  }

  private void poll() {
    while (running) {
      readNewLines();
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void readNewLines() {
    // a line being written is left for the next poll
    String err = app.stderr();
    long now = System.nanoTime();
    List<String> lines =
        err.substring(0, err.lastIndexOf('\n') + 1)
            .lines()
            .filter(l -> l.contains("[levee]"))
            .toList();
    for (int i = linesSeen; i < lines.size(); i++) {
      Matcher m = line.matcher(lines.get(i));
      if (m.find()) {
        seen.add(new Transition(m.group(1), m.group(2), now));
      }
    }
    linesSeen = lines.size();
  }
}
