package io.levee.bootstrap;

/**
 * The servlet logic for one servlet API as seen from one class loader. Its implementations are
 * compiled against the servlet API and defined by the agent in a small loader whose parent is the
 * application's ({@link ServletHooks.Factory}), so they use the same {@code javax.servlet} or
 * {@code jakarta.servlet} classes as the application, wherever the container keeps them.
 */
public abstract class ServletHook {
  /**
   * The decision for one dispatch: null when this dispatch does not decide (nested, not a request
   * dispatch, or decided before), a {@link Blocked} answer (already written to the response) or the
   * engine's permit.
   */
  public abstract Object enter(Object request, Object response) throws Exception;

  /** The end of a dispatch that {@link #enter} answered with {@code token}. */
  public abstract void exit(
      Object request, Object response, Object token, long start, Throwable thrown) throws Exception;
}
