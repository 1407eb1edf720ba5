package io.levee.rules.policy.adaptive.sim;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A {@link Scenario.Database} while it runs: requests wait in FIFO order for one of the pool's
 * connections (HikariCP hands them out in the order asked), run their query on the database's own
 * cores, keep the connection for the rest of the page's work (open session in view), and give it
 * back. Now and then, if the spec says so, the database's cores slow down for a while ({@link
 * Scenario.Database#dipEveryNanos}).
 */
final class Database {
  private final Scenario.Database spec;
  private final SharedCores cores;
  private final Random random;
  private final ArrayDeque<ServerModel.Request> waiting = new ArrayDeque<>();

  /** Queries done, connections still held: by the instant they are given back. */
  private final PriorityQueue<Held> holding = new PriorityQueue<>();

  private int inUse;
  private long seq;

  /** When the database's speed changes next (a slow moment begins or ends); never without them. */
  private long nextSwitch = Long.MAX_VALUE;

  private boolean slow;

  private record Held(long until, long seq, ServerModel.Request request)
      implements Comparable<Held> {
    @Override
    public int compareTo(Held o) {
      return until != o.until ? Long.compare(until, o.until) : Long.compare(seq, o.seq);
    }
  }

  Database(Scenario.Database spec, Random random) {
    this.spec = spec;
    this.cores = new SharedCores(spec.cores());
    this.random = random;
    if (spec.dipEveryNanos() > 0) {
      nextSwitch = untilNextDip();
    }
  }

  /** Slow moments come at random, {@code dipEveryNanos} apart on average. */
  private long untilNextDip() {
    return (long) (-Math.log(1 - random.nextDouble()) * spec.dipEveryNanos());
  }

  /** Pages differ: a query's work is drawn from an exponential distribution of the spec's mean. */
  private long work() {
    return (long) (-Math.log(1 - random.nextDouble()) * spec.queryNanos());
  }

  /** {@code r} asks for a connection now. */
  void query(ServerModel.Request r) {
    if (inUse < spec.pool()) {
      inUse++;
      cores.start(r, work());
    } else {
      waiting.add(r);
    }
  }

  /** When the next query is done, the next connection given back, or the speed changes. */
  long nextEvent(long now) {
    Held first = holding.peek();
    long next = Math.min(cores.nextCompletion(now), first == null ? Long.MAX_VALUE : first.until);
    return Math.min(next, nextSwitch);
  }

  /**
   * At {@link #nextEvent}: the request that gave its connection back, which goes to the next one
   * waiting; null if a query was done and its request keeps the connection for a while, or the
   * speed changed.
   */
  ServerModel.Request next(long now) {
    if (now >= nextSwitch) {
      slow = !slow;
      cores.speed(slow ? spec.dipSpeed() : 1);
      nextSwitch = now + (slow ? spec.dipNanos() : untilNextDip());
      return null;
    }
    Held first = holding.peek();
    if (first == null || cores.nextCompletion(now) < first.until) {
      ServerModel.Request r = cores.poll();
      if (spec.holdNanos() > 0) {
        holding.add(new Held(now + spec.holdNanos(), seq++, r));
        return null;
      }
      return giveBack(r);
    }
    return giveBack(holding.poll().request());
  }

  private ServerModel.Request giveBack(ServerModel.Request r) {
    ServerModel.Request next = waiting.poll();
    if (next != null) {
      cores.start(next, work());
    } else {
      inUse--;
    }
    return r;
  }

  void advance(long dt) {
    cores.advance(dt);
  }
}
