package io.levee.rules.model;

import java.util.Collections;
import java.util.Map;

/**
 * {@code on-block:} as written; what a blocked call finally gets also depends on the reason
 * (default status) and the kind, which the engine resolves. Null fields mean "the default for the
 * reason".
 */
public final class OnBlock {
  /** {@link #retryAfterSeconds} value for {@code auto}. */
  public static final int RETRY_AFTER_AUTO = -2;

  /** {@link #retryAfterSeconds} value for {@code none}. */
  public static final int RETRY_AFTER_NONE = -1;

  public static final OnBlock DEFAULT =
      new OnBlock(
          null, RETRY_AFTER_AUTO, null, null, Collections.<String, String>emptyMap(), null, null);

  /** What a blocked method call throws when {@code on-block.throw} is not given. */
  public static final String DEFAULT_EXCEPTION = "java.util.concurrent.RejectedExecutionException";

  /** Servlet status, or null for the reason's default. */
  public final Integer status;

  /** {@link #RETRY_AFTER_AUTO}, {@link #RETRY_AFTER_NONE} or a fixed number of seconds. */
  public final int retryAfterSeconds;

  /** Body, or null for the default one-line text. */
  public final String body;

  public final String contentType;

  /** Extra headers, in file order. */
  public final Map<String, String> headers;

  /** http only: answer with this instead of throwing; null to throw. */
  public final Fallback fallback;

  /** jdbc only: SQLState, or null for {@code 53000}. */
  public final String sqlState;

  /**
   * method only: the binary name of the exception a blocked call throws ({@code on-block.throw}),
   * or null for {@link #DEFAULT_EXCEPTION}.
   */
  public final String exception;

  /**
   * Where {@code on-block.throw} is written (1-based line and column), so that a check the agent
   * makes against the woven methods can point at it; 0 when not written. Not part of equality.
   */
  public final int exceptionLine;

  public final int exceptionColumn;

  public OnBlock(
      Integer status,
      int retryAfterSeconds,
      String body,
      String contentType,
      Map<String, String> headers,
      Fallback fallback,
      String sqlState) {
    this(status, retryAfterSeconds, body, contentType, headers, fallback, sqlState, null, 0, 0);
  }

  public OnBlock(
      Integer status,
      int retryAfterSeconds,
      String body,
      String contentType,
      Map<String, String> headers,
      Fallback fallback,
      String sqlState,
      String exception,
      int exceptionLine,
      int exceptionColumn) {
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
    this.contentType = contentType;
    this.headers = Collections.unmodifiableMap(headers);
    this.fallback = fallback;
    this.sqlState = sqlState;
    this.exception = exception;
    this.exceptionLine = exceptionLine;
    this.exceptionColumn = exceptionColumn;
  }

  /** The exception a blocked method call throws: {@link #exception} or the default. */
  public String exceptionOrDefault() {
    return exception != null ? exception : DEFAULT_EXCEPTION;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof OnBlock)) {
      return false;
    }
    OnBlock b = (OnBlock) o;
    return Values.eq(status, b.status)
        && retryAfterSeconds == b.retryAfterSeconds
        && Values.eq(body, b.body)
        && Values.eq(contentType, b.contentType)
        && headers.equals(b.headers)
        && Values.eq(fallback, b.fallback)
        && Values.eq(sqlState, b.sqlState)
        && Values.eq(exception, b.exception);
  }

  @Override
  public int hashCode() {
    return Values.hash(status, retryAfterSeconds, body, headers, fallback, sqlState, exception);
  }

  /** {@code on-block.fallback} of an http resource: the synthetic response. */
  public static final class Fallback {
    public final int status;
    public final String body;

    /** In file order. */
    public final Map<String, String> headers;

    /** Answer a blocked {@code GET} with the last good answer of its URL; null for never. */
    public final LastGoodSpec lastGood;

    public Fallback(int status, String body, Map<String, String> headers) {
      this(status, body, headers, null);
    }

    public Fallback(int status, String body, Map<String, String> headers, LastGoodSpec lastGood) {
      this.status = status;
      this.body = body;
      this.headers = Collections.unmodifiableMap(headers);
      this.lastGood = lastGood;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Fallback)) {
        return false;
      }
      Fallback f = (Fallback) o;
      return status == f.status
          && body.equals(f.body)
          && headers.equals(f.headers)
          && Values.eq(lastGood, f.lastGood);
    }

    @Override
    public int hashCode() {
      return Values.hash(status, body, headers, lastGood);
    }
  }
}
