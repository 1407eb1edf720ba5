package io.levee.rules.model;

/** Every default of the rules file, declared once (SPEC §2). */
public final class Defaults {
  public static final Mode MODE = Mode.ENFORCE;
  public static final long RELOAD_NANOS = 2_000_000_000L;
  public static final int MAX_KEYS = 10_000;

  public static final double BREAKER_FAILURE_RATE = 0.5;
  public static final double BREAKER_SLOW_CALL_RATE = 1.0;
  public static final long BREAKER_WINDOW_NANOS = 10_000_000_000L;
  public static final int BREAKER_MINIMUM_CALLS = 20;
  public static final long BREAKER_OPEN_FOR_NANOS = 5_000_000_000L;
  public static final long BREAKER_OPEN_FOR_MAX_NANOS = 60_000_000_000L;
  public static final int BREAKER_HALF_OPEN_CALLS = 5;

  public static final int ADAPTIVE_MIN_LIMIT = 2;
  public static final int ADAPTIVE_MAX_LIMIT = 200;
  public static final int ADAPTIVE_INITIAL_LIMIT = 20;
  public static final double ADAPTIVE_CPU_TARGET = 0.8;

  public static final String FAILURE_STATUSES = "5xx";
  public static final String SQL_STATE = "53000";

  public static final int STATUS_RATE_LIMIT = 429;
  public static final int STATUS_CONCURRENCY = 429;
  public static final int STATUS_CIRCUIT_OPEN = 503;
  public static final int STATUS_ADAPTIVE = 503;
  public static final int STATUS_SYSTEM = 503;

  /** A request answered for a refused outbound call ({@code backpressure}). */
  public static final int STATUS_BACKPRESSURE = 503;

  public static final String CONTENT_TYPE = "text/plain; charset=utf-8";

  public static final int LAST_GOOD_MAX_BODY = 256 * 1024;
  public static final int LAST_GOOD_MAX_ENTRIES = 1000;

  private Defaults() {}
}
