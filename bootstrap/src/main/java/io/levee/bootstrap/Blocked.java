package io.levee.bootstrap;

import io.levee.bootstrap.http.HttpAnswer;

/**
 * What a blocked call gets (SPEC §2 "on-block"), already resolved for the call's kind. The hooks
 * read the fields they need and carry the answer out without running the original method.
 */
public final class Blocked {
  /** The resource's name, or {@code "system"}. */
  public final String resource;

  /**
   * {@code rate-limit}, {@code concurrency}, {@code adaptive}, {@code circuit-open} or {@code
   * system}.
   */
  public final String reason;

  /**
   * One line starting with {@code levee:}; the message of the exception a blocked http/jdbc call
   * throws.
   */
  public final String message;

  /** Servlet status, or the fallback status of an http call. */
  public final int status;

  /** Seconds for {@code Retry-After}; -1 for no header. */
  public final int retryAfterSeconds;

  /** Response body (servlet, http fallback); never null. */
  public final String body;

  /** Content type of the body; never null. */
  public final String contentType;

  /** Extra response headers as name, value, name, value...; never null. */
  public final String[] headers;

  /** http only: answer with a synthetic response instead of throwing an IOException. */
  public final boolean fallback;

  /** jdbc only: SQLState of the SQLTransientException. */
  public final String sqlState;

  /**
   * http only: the last good answer of the call's URL ({@code fallback.last-good}), which answers
   * the call instead of the fallback's status, body and headers; null when there is none. {@link
   * HttpAnswer#of} gives it.
   */
  public final HttpAnswer lastGood;

  /**
   * method only: the binary name of the exception the blocked call throws ({@code on-block.throw});
   * null for the other kinds.
   */
  public final String exception;

  public Blocked(
      String resource,
      String reason,
      String message,
      int status,
      int retryAfterSeconds,
      String body,
      String contentType,
      String[] headers,
      boolean fallback,
      String sqlState) {
    this(
        resource,
        reason,
        message,
        status,
        retryAfterSeconds,
        body,
        contentType,
        headers,
        fallback,
        sqlState,
        null,
        null);
  }

  /** A blocked method call, which throws {@code exception} with {@code message}. */
  public static Blocked method(String resource, String reason, String message, String exception) {
    return method(resource, reason, message, exception, -1);
  }

  /**
   * As {@link #method(String, String, String, String)}; {@code retryAfterSeconds} is not for the
   * method's caller but for the request it served, if that request answers with backpressure.
   */
  public static Blocked method(
      String resource, String reason, String message, String exception, int retryAfterSeconds) {
    return new Blocked(
        resource,
        reason,
        message,
        0,
        retryAfterSeconds,
        "",
        "text/plain",
        new String[0],
        false,
        null,
        null,
        exception);
  }

  private Blocked(
      String resource,
      String reason,
      String message,
      int status,
      int retryAfterSeconds,
      String body,
      String contentType,
      String[] headers,
      boolean fallback,
      String sqlState,
      HttpAnswer lastGood,
      String exception) {
    this.resource = resource;
    this.reason = reason;
    this.message = message;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
    this.contentType = contentType;
    this.headers = headers;
    this.fallback = fallback;
    this.sqlState = sqlState;
    this.lastGood = lastGood;
    this.exception = exception;
  }

  /** This fallback, answered with {@code answer}, the last good answer of the call's URL. */
  public Blocked withLastGood(HttpAnswer answer) {
    return new Blocked(
        resource,
        reason,
        message,
        answer.status,
        retryAfterSeconds,
        body,
        contentType,
        headers,
        fallback,
        sqlState,
        answer,
        exception);
  }
}
