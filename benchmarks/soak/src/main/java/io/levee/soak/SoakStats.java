package io.levee.soak;

import io.levee.demo.driver.Histogram;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of one minute of the soak: how many were sent, answered with a 2xx, and failed,
 * split by whether the agent was in the application at any moment of the request, and the failures
 * split into errors (non-2xx, connection error) and timeouts (no answer within {@link
 * SoakMix#TIMEOUT}); and the latency histogram.
 *
 * <p>Concurrency: the generator counts sends and the HTTP client's threads record answers, under
 * this object's lock (a few hundred a second); the driver swaps the object once a minute.
 */
final class SoakStats {
  private static final int KEPT_FAILURES = 5;

  private final Histogram latency = new Histogram();
  private final List<String> failures = new ArrayList<>();
  private long sent;
  private long ok;
  private long withAgent;
  private long without;
  private long errorsWithAgent;
  private long timeoutsWithAgent;
  private long errorsWithout;
  private long timeoutsWithout;

  synchronized void countSent() {
    sent++;
  }

  synchronized void ok(boolean agent, long nanos) {
    ok++;
    count(agent);
    latency.record(nanos);
  }

  synchronized void failed(boolean agent, boolean timeout, String what, long nanos) {
    count(agent);
    latency.record(nanos);
    if (agent && timeout) {
      timeoutsWithAgent++;
    } else if (agent) {
      errorsWithAgent++;
    } else if (timeout) {
      timeoutsWithout++;
    } else {
      errorsWithout++;
    }
    if (failures.size() < KEPT_FAILURES) {
      failures.add((agent ? "agent in: " : "agent out: ") + what);
    }
  }

  private void count(boolean agent) {
    if (agent) {
      withAgent++;
    } else {
      without++;
    }
  }

  synchronized long sent() {
    return sent;
  }

  synchronized long ok() {
    return ok;
  }

  /** Requests answered or failed while the agent was in at some moment of them. */
  synchronized long withAgent() {
    return withAgent;
  }

  synchronized long without() {
    return without;
  }

  synchronized long errorsWithAgent() {
    return errorsWithAgent;
  }

  synchronized long timeoutsWithAgent() {
    return timeoutsWithAgent;
  }

  synchronized long errorsWithout() {
    return errorsWithout;
  }

  synchronized long timeoutsWithout() {
    return timeoutsWithout;
  }

  synchronized long failedWithAgent() {
    return errorsWithAgent + timeoutsWithAgent;
  }

  synchronized long failedWithout() {
    return errorsWithout + timeoutsWithout;
  }

  synchronized double p50() {
    return latency.percentileMillis(0.50);
  }

  synchronized double p99() {
    return latency.percentileMillis(0.99);
  }

  synchronized List<String> failures() {
    return List.copyOf(failures);
  }
}
