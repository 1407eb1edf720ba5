package methodapp;

import io.levee.it.apps.Lines;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls targets and says what happened: how many callers ran the method, how many got which
 * exception, with which messages.
 *
 * <p>A held run starts {@code callers} threads at once, each calling its target (the targets taken
 * in turn); a caller that enters a service method is held there ({@link Gate}) until every caller
 * has either entered or been turned away, so the admitted calls are all in flight together. Then,
 * with them still in flight, each {@code during} target (a comma-separated list) is called once on
 * the request's thread, and the gate opens; with {@code release}, only once {@code /release} is
 * asked.
 */
final class Runs {
  private static final long ARRIVAL_MILLIS = 20_000;
  private final Targets targets;
  private final AtomicInteger threads = new AtomicInteger();
  private volatile Pending pending;

  Runs(Targets targets) {
    this.targets = targets;
  }

  /** {@code /held}: how many callers of the run waiting for {@code /release} have arrived. */
  String waiting(Map<String, String> q) {
    Pending p = pending;
    return new Lines().put("arrived", p == null ? 0 : p.arrived).toString();
  }

  /** {@code /release}: lets the run waiting for it end. */
  String release(Map<String, String> q) {
    Pending p = pending;
    if (p != null) {
      p.release.countDown();
    }
    return new Lines().put("released", p != null).toString();
  }

  /** A run whose admitted calls are held until {@code /release}. */
  private static final class Pending {
    final long arrived;
    final CountDownLatch release;

    Pending(long arrived, CountDownLatch release) {
      this.arrived = arrived;
      this.release = release;
    }
  }

  String held(Map<String, String> q) throws Exception {
    String[] names = q.get("target").split(",");
    int callers = Integer.parseInt(q.getOrDefault("callers", "6"));
    String argument = q.getOrDefault("arg", "item");
    Gate.Held gate = new Gate.Held(callers);
    Outcomes outcomes = new Outcomes();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            callers, r -> new Thread(r, "caller-" + threads.incrementAndGet()));
    List<Future<?>> futures = new ArrayList<>();
    List<Gate.Caller> all = new ArrayList<>();
    long before = Gate.invocations();
    try {
      for (int i = 0; i < callers; i++) {
        Targets.Call call = targets.get(names[i % names.length]);
        Gate.Caller caller = new Gate.Caller(gate);
        all.add(caller);
        futures.add(
            pool.submit(
                () -> {
                  Gate.bind(caller);
                  try {
                    call.call(argument);
                    outcomes.returned();
                  } catch (Throwable t) {
                    outcomes.threw(t);
                  } finally {
                    caller.arrive();
                    Gate.bind(null);
                  }
                }));
      }
      boolean arrived = gate.awaitArrivals(ARRIVAL_MILLIS);
      Lines out = new Lines().put("callers", callers).put("arrived", callers - gate.arrivals());
      out.put("allArrived", arrived);
      String during = q.get("during");
      if (during != null) {
        for (String name : during.split(",")) {
          out.put("during." + name, once(name, argument));
        }
      }
      if (q.containsKey("release")) {
        // The admitted calls stay in flight until /release, for a change made meanwhile.
        CountDownLatch release = new CountDownLatch(1);
        pending = new Pending(callers - gate.arrivals(), release);
        boolean released = release.await(60, TimeUnit.SECONDS);
        pending = null;
        out.put("released", released);
      }
      gate.open();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      out.put("ran", all.stream().filter(Gate.Caller::ran).count());
      return outcomes.report(out, Gate.invocations() - before).toString();
    } finally {
      gate.open();
      pool.shutdownNow();
    }
  }

  /** {@code repeat} calls one after the other on this thread. */
  String sequential(Map<String, String> q) {
    Targets.Call call = targets.get(q.get("target"));
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    String argument = q.getOrDefault("arg", "item");
    Outcomes outcomes = new Outcomes();
    long before = Gate.invocations();
    for (int i = 0; i < repeat; i++) {
      try {
        call.call(argument);
        outcomes.returned();
      } catch (Throwable t) {
        outcomes.threw(t);
      }
    }
    return outcomes
        .report(new Lines().put("calls", repeat), Gate.invocations() - before)
        .toString();
  }

  private String once(String target, String argument) {
    try {
      return "returned " + targets.get(target).call(argument);
    } catch (Throwable t) {
      return "threw " + t.getClass().getName() + ": " + t.getMessage();
    }
  }

  /** What the calls of one run ended with. */
  private static final class Outcomes {
    private final AtomicInteger returned = new AtomicInteger();
    private final Map<String, Integer> exceptions = new TreeMap<>();
    private final TreeSet<String> messages = new TreeSet<>();

    void returned() {
      returned.incrementAndGet();
    }

    synchronized void threw(Throwable t) {
      exceptions.merge(t.getClass().getName(), 1, Integer::sum);
      messages.add(String.valueOf(t.getMessage()));
    }

    synchronized Lines report(Lines out, long invocations) {
      out.put("invocations", invocations).put("returned", returned.get());
      out.put("threw", exceptions.values().stream().mapToInt(Integer::intValue).sum());
      exceptions.forEach((name, count) -> out.put("exception." + name, count));
      out.put("messages", String.join(" | ", messages));
      return out;
    }
  }
}
