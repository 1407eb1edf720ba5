package io.levee.rules.policy.adaptive.sim;

import io.levee.rules.model.Priority;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A discrete-event model of a servlet container: the {@link Scenario.Server}'s cores shared equally
 * by every thread that wants CPU (processor sharing), {@link Scenario#threads} worker threads fed
 * from an unbounded FIFO of accepted connections (Tomcat NIO), and an {@link Admission} that each
 * request passes on its worker thread before the page runs. A thread that finishes takes the next
 * queued request at once; with none queued it waits behind the other idle threads, and the one that
 * has waited longest takes the next request (a {@code ThreadPoolExecutor}'s order, Tomcat's). An
 * admitted request then holds its permit for its CPU, its downstream wait (or its turn at a {@link
 * Scenario.Database}, when the scenario has one) and the server's off-CPU time. Clients send
 * open-loop Poisson arrivals and time their answers from the intended send time; the server never
 * learns that a client gave up.
 *
 * <p>With a {@link Mix}, each first attempt at {@code /cpu} is of one of three pages, critical,
 * normal or sheddable, drawn in the mix's shares; each page is a class of its own for the limit, as
 * three resources would be. Without one, every request is normal.
 *
 * <p>Deterministic: seeded random sources (the mix has its own, so a run without one draws what it
 * always drew), ties broken by event order.
 */
public final class ServerModel {
  private static final long CPU_TICK_NANOS = 100_000_000L;
  private static final double CPU_TAU_NANOS = 0.5e9; // CpuSampler.TAU_NANOS
  private static final long RETRY_BACKOFF_NANOS = 200_000_000L;

  private final Scenario scenario;
  private final Admission admission;
  private final Metrics metrics;
  private final Random random;
  private final Mix mix;
  private final Random mixRandom;
  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private final SharedCores cpu;
  private final ArrayDeque<Request> waitingForThread = new ArrayDeque<>();

  /** The idle worker threads, by number, the one idle longest first. */
  private final ArrayDeque<Integer> idleThreads = new ArrayDeque<>();

  /** Null unless {@code /io} queries a {@link Scenario.Database}. */
  private final Database database;

  private long seq;
  private long now;
  private double busyAtTick;
  private double busyAtSecond;
  private double smoothedCpu;
  private int ticks;

  public ServerModel(Scenario scenario, Admission admission, long seed) {
    this(scenario, admission, seed, null);
  }

  /** {@code mix}: the shares of the {@code /cpu} pages by priority; null for all normal. */
  public ServerModel(Scenario scenario, Admission admission, long seed, Mix mix) {
    this.scenario = scenario;
    IntStream.range(0, scenario.threads()).forEach(idleThreads::add);
    this.admission = admission;
    this.metrics = new Metrics(scenario);
    this.random = new Random(seed);
    this.mix = mix;
    this.mixRandom = new Random(seed * 31 + 17);
    this.cpu = new SharedCores(scenario.server().cores());
    this.database =
        scenario.database() == null
            ? null
            : new Database(scenario.database(), new Random(seed * 7 + 3));
  }

  /**
   * The shares of the critical and sheddable {@code /cpu} pages (the normal page has the rest);
   * {@code ranked}: false runs the same three pages with every request normal, the baseline.
   */
  public record Mix(double critical, double sheddable, boolean ranked) {
    Priority draw(Random random) {
      double u = random.nextDouble();
      return u < critical
          ? Priority.CRITICAL
          : u < critical + sheddable ? Priority.SHEDDABLE : Priority.NORMAL;
    }
  }

  /** Runs the whole scenario and returns what the clients and the limit saw. */
  public Metrics run() {
    long end = (long) (scenario.totalSeconds() * 1e9);
    scheduleArrival(0, true);
    scheduleArrival(0, false);
    for (int i = 0; i < scenario.clients(); i++) {
      Request r = new Request(i * 100_000L, false, false);
      r.closedLoop = true;
      schedule(new Event(r.intended, EventType.ARRIVE, r));
    }
    schedule(new Event(CPU_TICK_NANOS, EventType.TICK, null));
    while (true) {
      Event e = events.peek();
      long eventAt = e == null ? Long.MAX_VALUE : e.time;
      long cpuDone = cpu.nextCompletion(now);
      long queryDone = database == null ? Long.MAX_VALUE : database.nextEvent(now);
      long next = Math.min(eventAt, Math.min(cpuDone, queryDone));
      if (next > end + Scenario.CLIENT_TIMEOUT_NANOS) {
        break;
      }
      advanceTo(next);
      if (cpuDone <= Math.min(eventAt, queryDone)) {
        cpuDone(cpu.poll());
      } else if (queryDone <= eventAt) {
        Request r = database.next(now);
        if (r != null) {
          afterDownstream(r);
        }
      } else {
        events.poll();
        handle(e, end);
      }
    }
    return metrics;
  }

  private void handle(Event e, long end) {
    switch (e.type) {
      case ARRIVE -> {
        Request r = e.request;
        if (!r.retry && !r.closedLoop && r.intended < end) {
          scheduleArrival(r.intended, r.cpuPage);
        }
        if (r.intended >= end) {
          return;
        }
        metrics.offered(r);
        if (scenario.retries()) {
          schedule(new Event(r.intended + Scenario.CLIENT_TIMEOUT_NANOS, EventType.TIMEOUT, r));
        }
        if (!idleThreads.isEmpty()) {
          r.thread = idleThreads.poll();
          onThread(r);
        } else {
          waitingForThread.add(r);
        }
      }
      case OFF_CPU_DONE -> finish(e.request);
      case TIMEOUT -> {
        Request r = e.request;
        if (!r.answered && !r.retry) {
          retry(r);
        }
        r.gaveUp = true;
      }
      case TICK -> tick();
    }
  }

  private void onThread(Request r) {
    r.admitted = admission.tryAcquire(now, cls(r), ranked(r), r.thread);
    if (r.admitted) {
      r.acquired = now;
    }
    Scenario.Server server = scenario.server();
    long work = server.rejectNanos();
    if (r.admitted) {
      work = server.overheadNanos() + (r.cpuPage ? server.cpuNanos() : server.ioCpuNanos());
    }
    r.seq = seq++;
    cpu.start(r, work);
  }

  private void cpuDone(Request r) {
    if (r.admitted && !r.cpuPage && database != null) {
      database.query(r);
      return;
    }
    long offCpu = r.admitted ? scenario.server().offCpuNanos() : 0;
    if (r.admitted && !r.cpuPage) {
      offCpu += phaseAt(now).downstreamNanos();
    }
    afterOffCpu(r, offCpu);
  }

  private void afterDownstream(Request r) {
    afterOffCpu(r, scenario.server().offCpuNanos());
  }

  private void afterOffCpu(Request r, long offCpu) {
    if (offCpu > 0) {
      schedule(new Event(now + offCpu, EventType.OFF_CPU_DONE, r));
    } else {
      finish(r);
    }
  }

  private void finish(Request r) {
    if (r.admitted) {
      admission.release(now, now - r.acquired, cls(r), ranked(r));
    }
    r.answered = true;
    metrics.answered(r, now, r.gaveUp);
    if (!r.admitted && scenario.retries() && !r.retry && !r.gaveUp) {
      retry(r);
    }
    if (r.closedLoop) {
      Request again = new Request(now + Scenario.CLIENT_TURNAROUND_NANOS, r.cpuPage, false);
      again.closedLoop = true;
      schedule(new Event(again.intended, EventType.ARRIVE, again));
    }
    Request next = waitingForThread.poll();
    if (next != null) {
      next.thread = r.thread;
      onThread(next);
    } else {
      idleThreads.add(r.thread);
    }
  }

  private void retry(Request r) {
    long at = now + (long) (random.nextDouble() * RETRY_BACKOFF_NANOS);
    Request again = new Request(at, r.cpuPage, true);
    again.priority = r.priority;
    schedule(new Event(at, EventType.ARRIVE, again));
  }

  /** {@code /cpu} 0, {@code /io} 1; with a mix, {@code /cpu}'s critical page 2, sheddable 3. */
  private static int cls(Request r) {
    if (!r.cpuPage) {
      return 1;
    }
    return r.priority == Priority.CRITICAL ? 2 : r.priority == Priority.SHEDDABLE ? 3 : 0;
  }

  private Priority ranked(Request r) {
    return mix != null && mix.ranked() ? r.priority : Priority.NORMAL;
  }

  private void tick() {
    double busyCoreNanos = cpu.busyCoreNanos();
    double raw = (busyCoreNanos - busyAtTick) / CPU_TICK_NANOS / scenario.server().cores();
    busyAtTick = busyCoreNanos;
    smoothedCpu += (1 - Math.exp(-CPU_TICK_NANOS / CPU_TAU_NANOS)) * (raw - smoothedCpu);
    admission.cpu(now, smoothedCpu);
    if (++ticks % 10 == 0) {
      double lastSecond = (busyCoreNanos - busyAtSecond) / 1e9 / scenario.server().cores();
      admission.cpuLastSecond(now, lastSecond);
      busyAtSecond = busyCoreNanos;
    }
    metrics.tick(now, admission.limit(), smoothedCpu);
    schedule(new Event(now + CPU_TICK_NANOS, EventType.TICK, null));
  }

  private void scheduleArrival(long after, boolean cpuPage) {
    long t = after;
    while (true) {
      Scenario.Phase phase = phaseAt(t);
      double rate = cpuPage ? phase.cpuRate() : phase.ioRate();
      long phaseEnd = phaseEnd(t);
      if (rate <= 0) {
        if (phaseEnd == Long.MAX_VALUE) {
          return;
        }
        t = phaseEnd;
        continue;
      }
      long gap = (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
      if (t + gap < phaseEnd) {
        Request r = new Request(t + gap, cpuPage, false);
        if (mix != null && cpuPage) {
          r.priority = mix.draw(mixRandom);
        }
        schedule(new Event(t + gap, EventType.ARRIVE, r));
        return;
      }
      t = phaseEnd; // memoryless: start afresh at the next phase's rate
    }
  }

  Scenario.Phase phaseAt(long t) {
    double s = t / 1e9;
    for (Scenario.Phase p : scenario.phases()) {
      if (s < p.seconds()) {
        return p;
      }
      s -= p.seconds();
    }
    return scenario.phases().get(scenario.phases().size() - 1);
  }

  private long phaseEnd(long t) {
    double end = 0;
    for (Scenario.Phase p : scenario.phases()) {
      end += p.seconds();
      if (t < (long) (end * 1e9)) {
        return (long) (end * 1e9);
      }
    }
    return Long.MAX_VALUE;
  }

  private void advanceTo(long t) {
    long dt = t - now;
    if (dt > 0) {
      cpu.advance(dt);
      if (database != null) {
        database.advance(dt);
      }
      now = t;
    }
  }

  private void schedule(Event e) {
    e.seq = seq++;
    events.add(e);
  }

  private enum EventType {
    /** A client sends a request (or its retry). */
    ARRIVE,
    /** An admitted request's time off the CPU (downstream, socket writes) is over. */
    OFF_CPU_DONE,
    /** The client gives up on a request. */
    TIMEOUT,
    /** The CPU sampler's period. */
    TICK
  }

  private static final class Event implements Comparable<Event> {
    final long time;
    final EventType type;
    final Request request;
    long seq;

    Event(long time, EventType type, Request request) {
      this.time = time;
      this.type = type;
      this.request = request;
    }

    @Override
    public int compareTo(Event o) {
      return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
    }
  }

  /** One client request, and its retry if it gets one. */
  static final class Request implements Comparable<Request> {
    final long intended;
    final boolean cpuPage;
    final boolean retry;
    boolean closedLoop;
    Priority priority = Priority.NORMAL;
    boolean admitted;
    boolean answered;
    boolean gaveUp;
    long acquired;
    int thread;
    double finishVirtual;
    long seq;

    Request(long intended, boolean cpuPage, boolean retry) {
      this.intended = intended;
      this.cpuPage = cpuPage;
      this.retry = retry;
    }

    @Override
    public int compareTo(Request o) {
      int c = Double.compare(finishVirtual, o.finishVirtual);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
