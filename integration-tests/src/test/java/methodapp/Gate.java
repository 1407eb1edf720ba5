package methodapp;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where every method of the application's services starts: it counts the call and, on a thread that
 * {@link Runs} started as one of a run's callers, holds the call until the run opens the gate, so
 * that the calls a rule admitted are all in flight at once and the test counts them without timing
 * anything.
 */
public final class Gate {
  private static final AtomicLong INVOCATIONS = new AtomicLong();
  private static final ThreadLocal<Caller> CALLER = new ThreadLocal<>();

  private Gate() {}

  /** Called first by each method of the services. */
  public static void enter() {
    INVOCATIONS.incrementAndGet();
    Caller caller = CALLER.get();
    if (caller != null) {
      caller.entered();
    }
  }

  /** How many service methods have started since the application did. */
  public static long invocations() {
    return INVOCATIONS.get();
  }

  static void bind(Caller caller) {
    if (caller == null) {
      CALLER.remove();
    } else {
      CALLER.set(caller);
    }
  }

  /** One caller of a held run: arrives once, by entering a method or by being turned away. */
  static final class Caller {
    private final Held run;
    private final AtomicBoolean arrived = new AtomicBoolean();
    private final AtomicBoolean ran = new AtomicBoolean();

    Caller(Held run) {
      this.run = run;
    }

    boolean ran() {
      return ran.get();
    }

    void entered() {
      ran.set(true);
      arrive();
      run.awaitOpen();
    }

    void arrive() {
      if (arrived.compareAndSet(false, true)) {
        run.arrived.countDown();
      }
    }
  }

  /** The gate of one run of {@code callers} parallel callers. */
  static final class Held {
    private final CountDownLatch arrived;
    private final CountDownLatch open = new CountDownLatch(1);

    Held(int callers) {
      this.arrived = new CountDownLatch(callers);
    }

    boolean awaitArrivals(long millis) throws InterruptedException {
      return arrived.await(millis, TimeUnit.MILLISECONDS);
    }

    long arrivals() {
      return arrived.getCount();
    }

    void open() {
      open.countDown();
    }

    private void awaitOpen() {
      try {
        if (!open.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the gate was never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
