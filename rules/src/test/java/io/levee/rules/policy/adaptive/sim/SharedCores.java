package io.levee.rules.policy.adaptive.sim;

import java.util.PriorityQueue;

/**
 * Cores shared equally by every request that wants one (processor sharing), in virtual time: each
 * of {@code k} requests runs at {@code min(1, cores / k)} of a core, so a request's work is done
 * when the virtual clock passes the instant it started plus its work. The server's CPU and the
 * database's are each one of these.
 */
final class SharedCores {
  private final int cores;
  private final PriorityQueue<ServerModel.Request> running = new PriorityQueue<>();
  private double virtual;
  private double busyCoreNanos;

  /** The share of their speed the cores run at (another process takes the rest). */
  private double speed = 1;

  SharedCores(int cores) {
    this.cores = cores;
  }

  /** {@code r} starts {@code workNanos} of work now; its {@code seq} breaks ties. */
  void start(ServerModel.Request r, long workNanos) {
    r.finishVirtual = virtual + workNanos;
    running.add(r);
  }

  /**
   * When the next request's work is done, from {@code now}; {@code Long.MAX_VALUE} if none runs.
   */
  long nextCompletion(long now) {
    ServerModel.Request first = running.peek();
    if (first == null) {
      return Long.MAX_VALUE;
    }
    return now + (long) Math.ceil(Math.max(0, first.finishVirtual - virtual) / rate());
  }

  /** The request whose work is done (at the instant {@link #nextCompletion} gave). */
  ServerModel.Request poll() {
    return running.poll();
  }

  /** {@code dt} nanoseconds pass. */
  void advance(long dt) {
    virtual += dt * rate();
    busyCoreNanos += dt * (double) Math.min(running.size(), cores);
  }

  /** From now on the cores run at {@code speed} of their own (1: all of it). */
  void speed(double speed) {
    this.speed = speed;
  }

  /** Core-nanoseconds of work done so far. */
  double busyCoreNanos() {
    return busyCoreNanos;
  }

  private double rate() {
    int k = running.size();
    return k == 0 ? 0 : speed * Math.min(1.0, (double) cores / k);
  }
}
