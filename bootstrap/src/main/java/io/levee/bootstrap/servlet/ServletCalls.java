package io.levee.bootstrap.servlet;

import io.levee.bootstrap.Blocked;

/**
 * The servlet logic for one servlet API as seen from one class loader. Its implementations are
 * compiled against the servlet API and defined by the agent in a small loader whose parent is the
 * application's ({@link ServletHooks.Factory}), so they use the same {@code javax.servlet} or
 * {@code jakarta.servlet} classes as the application, wherever the container keeps them. The same
 * typed access reads the keys of per-key rate limits, so the agent never reflects on a request.
 */
public abstract class ServletCalls {
  private Object keys;

  /**
   * The decision for one dispatch: null when this dispatch does not decide (nested, not a request
   * dispatch, or decided before), a {@link Blocked} answer (already written to the response) or the
   * engine's permit.
   */
  public abstract Object enter(Object request, Object response) throws Exception;

  /**
   * The end of a dispatch that {@link #enter} answered with {@code token}. True when it wrote a
   * blocked answer in place of the request's own ({@code backpressure}): then {@code thrown}, if
   * any, has been answered and must not reach the container.
   */
  public abstract boolean exit(
      Object request, Object response, Object token, long start, Throwable thrown) throws Exception;

  /** {@code getRemoteAddr()} of {@code request}. */
  public abstract String remoteAddr(Object request);

  /** {@code getHeader(name)} of {@code request}. */
  public abstract String header(Object request, String name);

  /** {@code getQueryString()} of {@code request}, never its body. */
  public abstract String queryString(Object request);

  /**
   * What reads keys through these calls for the agent's engine, handed to it with each request; set
   * once by the factory before the calls are first used.
   */
  public final void readKeysWith(Object keys) {
    this.keys = keys;
  }

  protected final Object keys() {
    return keys;
  }
}
