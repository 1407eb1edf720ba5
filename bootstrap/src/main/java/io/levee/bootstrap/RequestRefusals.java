package io.levee.bootstrap;

/**
 * The outbound call Levee refused on this thread while an inbound request with {@code backpressure}
 * ran on it: what the request's 5xx is turned into a blocked answer for. Only a refusal the
 * application saw as a failure counts; an http call answered with a {@code fallback} got a response
 * instead, so it does not.
 *
 * <p>Cost: an admitted outbound call pays one type check ({@link #note}); a refused one reads the
 * thread-local only once some request has armed it ({@code used}), so with no {@code backpressure}
 * in the rules nothing here ever runs. Each thread that serves such a request gets one {@link Slot}
 * and reuses it: a request allocates nothing.
 *
 * <p>Concurrency: a slot is read and written by its own thread only. {@code used} goes from false
 * to true once; a thread that reads it late misses a refusal of a request armed on another thread,
 * which cannot be its own.
 */
public final class RequestRefusals {
  private static final ThreadLocal<Slot> SLOT = new ThreadLocal<Slot>();
  private static volatile boolean used;

  private RequestRefusals() {}

  /** Starts watching this thread for refused calls: a request with backpressure begins. */
  public static void arm() {
    if (!used) {
      used = true;
    }
    Slot slot = SLOT.get();
    if (slot == null) {
      slot = new Slot();
      SLOT.set(slot);
    }
    slot.armed = true;
    slot.refused = null;
  }

  /**
   * Keeps {@code token}, the decision about an outbound call, when it refused the call and this
   * thread is watching; the last refusal wins, being the likeliest to have ended the request.
   * Returns {@code token}.
   */
  public static Object note(Object token) {
    if (token instanceof Blocked && used && !((Blocked) token).fallback) {
      Slot slot = SLOT.get();
      if (slot != null && slot.armed) {
        slot.refused = (Blocked) token;
      }
    }
    return token;
  }

  /** Stops watching this thread and returns the refusal it saw, or null. */
  public static Blocked disarm() {
    Slot slot = SLOT.get();
    if (slot == null) {
      return null;
    }
    Blocked refused = slot.refused;
    slot.armed = false;
    slot.refused = null;
    return refused;
  }

  /** One thread's watch; a plain holder, because a ThreadLocal subclass would pin its loader. */
  private static final class Slot {
    boolean armed;
    Blocked refused;
  }
}
