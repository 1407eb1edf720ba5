package io.levee.bootstrap.okhttp;

import io.levee.bootstrap.Blocked;

/**
 * The OkHttp logic for the copy of OkHttp one class loader sees: compiled against OkHttp's API and
 * defined by the agent beside it, so it uses the application's own {@code okhttp3} classes. Every
 * argument and result is an OkHttp object passed as {@code Object}: an {@code Interceptor.Chain} or
 * a {@code Response}.
 */
public interface OkHttpCalls {
  /**
   * The decision for the chain's request (null, a {@link Blocked} or the engine's permit); for a
   * permit, the call timeout it asks for is applied when the application set none.
   */
  Object enter(Object chain);

  /** The fallback response of a blocked call, built from {@code blocked}'s answer. */
  Object fallback(Object chain, Blocked blocked);

  /** The status code of {@code response}. */
  int status(Object response);

  /**
   * {@code response}, or a copy whose body also goes to the last good answers of the chain's URL as
   * the application reads it, when the engine keeps it.
   */
  Object keepLastGood(Object chain, Object permit, Object response);
}
