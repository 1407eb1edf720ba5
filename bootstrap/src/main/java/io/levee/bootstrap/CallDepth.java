package io.levee.bootstrap;

/**
 * Per-thread nesting depth by {@link Kind}, so only the outermost intercepted method of a logical
 * call decides (a {@code getInputStream} that calls {@code connect}, a pool proxy that calls the
 * driver).
 *
 * <p>A plain {@link ThreadLocal} holding an {@code int[]}, not a subclass: a ThreadLocal subclass
 * defined by an agent pins its class loader through every thread's map.
 */
public final class CallDepth {
  private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<int[]>();

  private CallDepth() {}

  /** Increments the depth of {@code kind} and returns the depth before, so 0 means outermost. */
  public static int enter(int kind) {
    Faults.at(Faults.CALL_DEPTH);
    int[] depth = DEPTH.get();
    if (depth == null) {
      depth = new int[Kind.COUNT];
      DEPTH.set(depth);
    }
    return depth[kind]++;
  }

  /** Decrements the depth of {@code kind} and returns the depth after, so 0 means outermost. */
  public static int exit(int kind) {
    int[] depth = DEPTH.get();
    if (depth == null || depth[kind] == 0) {
      return 0;
    }
    return --depth[kind];
  }

  /** The current depth of {@code kind} on this thread. */
  public static int current(int kind) {
    int[] depth = DEPTH.get();
    return depth == null ? 0 : depth[kind];
  }
}
