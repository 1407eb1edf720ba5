package io.levee.bootstrap.method;

/**
 * Per thread, the method resources with a call open, innermost last, so that a protected method
 * that calls itself or another method of the same resource (an override calling {@code super}, a
 * proxy calling its target) is decided once, at the outermost call.
 *
 * <p>Resources are named by an int id the engine gives each resource's state, and the stack is a
 * plain {@link ThreadLocal} holding an {@code int[]} (size first, then the ids): boot-loader types
 * only, so a thread that outlives a detach pins nothing of the agent. Opening and closing allocate
 * nothing once a thread's stack has grown to its depth.
 */
public final class OpenMethods {
  private static final ThreadLocal<int[]> OPEN = new ThreadLocal<int[]>();

  private OpenMethods() {}

  /** Whether a call of resource {@code id} is open on this thread. */
  public static boolean isOpen(int id) {
    int[] open = OPEN.get();
    if (open == null) {
      return false;
    }
    for (int i = open[0]; i > 0; i--) {
      if (open[i] == id) {
        return true;
      }
    }
    return false;
  }

  /** A call of resource {@code id} was admitted on this thread. */
  public static void open(int id) {
    int[] open = OPEN.get();
    if (open == null) {
      open = new int[5];
      OPEN.set(open);
    } else if (open[0] + 1 == open.length) {
      int[] grown = new int[open.length * 2];
      System.arraycopy(open, 0, grown, 0, open.length);
      open = grown;
      OPEN.set(open);
    }
    open[++open[0]] = id;
  }

  /**
   * The call of resource {@code id} that this thread opened last ended. Calls end in the reverse
   * order they opened (the woven code closes in a {@code finally}), so that is the top of the
   * stack; should it not be, the innermost entry of {@code id} goes.
   */
  public static void close(int id) {
    int[] open = OPEN.get();
    if (open == null || open[0] == 0) {
      return;
    }
    int top = open[0];
    for (int i = top; i > 0; i--) {
      if (open[i] == id) {
        System.arraycopy(open, i + 1, open, i, top - i);
        open[0] = top - 1;
        return;
      }
    }
  }
}
