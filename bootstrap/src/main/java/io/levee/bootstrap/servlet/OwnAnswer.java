package io.levee.bootstrap.servlet;

/**
 * The status of the answer Levee gave the request this thread serves, if it answered it itself.
 * Tomcat closes the connection after any 503 (and 400, 408, 411, 413, 414, 500 and 501), whatever
 * the headers say; the blocked answer of the {@code system} limit and of an adaptive limit is a 503
 * by default, so each request they shed would cost its client a new connection and the server an
 * accept: under overload, CPU that the admitted requests need, and for a closed loop of clients, a
 * reconnect per refused request. Levee's answer is whole (a body of known length), and the
 * container swallows an unread request body after it as after any other answer, so the connection
 * can serve the next request. The application's own 503s are left alone.
 *
 * <p>Tomcat asks whether the status drops the connection twice, when the response is committed and
 * after the servlet returns, both on the request's thread ({@link ServletHooks#keepsConnection}).
 * The mark is therefore kept until the thread's next request comes to the servlet hook ({@link
 * #clear}); only an answer with the same status that the container itself writes on that thread in
 * between (none without a servlet but a stopped application's) keeps its connection too.
 *
 * <p>Cost: one volatile read per request until Levee first answers a request, then one thread-local
 * read per request and per Tomcat decision. Each thread that answers gets one {@link Slot} and
 * reuses it.
 *
 * <p>Concurrency: a slot is read and written by its own thread only; {@code used} goes from false
 * to true once.
 */
public final class OwnAnswer {
  private static final ThreadLocal<Slot> SLOT = new ThreadLocal<Slot>();
  private static volatile boolean used;

  private OwnAnswer() {}

  /** Levee answered this thread's request with {@code status}. */
  public static void answered(int status) {
    if (!used) {
      used = true;
    }
    Slot slot = SLOT.get();
    if (slot == null) {
      slot = new Slot();
      SLOT.set(slot);
    }
    slot.status = status;
  }

  /** A new request on this thread: whatever was answered before is not its answer. */
  public static void clear() {
    if (!used) {
      return;
    }
    Slot slot = SLOT.get();
    if (slot != null) {
      slot.status = 0;
    }
  }

  /** Whether a response of {@code status} on this thread is the answer Levee gave. */
  public static boolean isOwn(int status) {
    if (!used) {
      return false;
    }
    Slot slot = SLOT.get();
    return slot != null && slot.status == status;
  }

  /** One thread's mark; a plain holder, because a ThreadLocal subclass would pin its loader. */
  private static final class Slot {
    int status;
  }
}
