package io.levee.load.gen;

import java.util.List;

/**
 * A stretch of constant offered load: for each stream a rate, and the stub's latency during it
 * ({@code stubMillis < 0} leaves it as it was).
 */
public record Phase(String name, int seconds, List<Load> loads, long stubMillis) {

  /**
   * One stream of requests to one page at a constant rate; answers later than deadline are not
   * goodput.
   */
  public record Load(String stream, String path, double rate, long deadlineMillis) {}

  public double rate(String stream) {
    for (Load l : loads) {
      if (l.stream().equals(stream)) {
        return l.rate();
      }
    }
    return 0;
  }
}
