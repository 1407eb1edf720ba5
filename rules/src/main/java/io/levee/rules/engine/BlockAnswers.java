package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.OnBlock;
import java.util.Map;

/**
 * What a blocked call of one resource gets (SPEC §2 "on-block"), resolved once per reason when the
 * rules are applied. Only {@code Retry-After: auto} depends on the moment (the nanos until a token
 * or the breaker's next probe); every other answer is built once and handed out again, so most
 * blocked calls allocate nothing either.
 */
final class BlockAnswers {
  private final String resource;
  private final OnBlock onBlock;
  private final String contentType;
  private final String[] headers;
  private final String sqlState;
  private final boolean fallback;

  /** method only: what a blocked call throws; null for the other kinds. */
  private final String exception;

  private final Blocked[] fixed = new Blocked[Reason.ALL.length];

  BlockAnswers(String resource, CallKind kind, OnBlock onBlock) {
    this.resource = resource;
    this.onBlock = onBlock;
    this.fallback = kind == CallKind.HTTP && onBlock.fallback != null;
    Map<String, String> headerMap = fallback ? onBlock.fallback.headers : onBlock.headers;
    this.headers = flatten(headerMap);
    this.contentType = contentType(onBlock.contentType, headerMap);
    this.sqlState = onBlock.sqlState != null ? onBlock.sqlState : Defaults.SQL_STATE;
    this.exception = kind == CallKind.METHOD ? onBlock.exceptionOrDefault() : null;
    for (Reason reason : Reason.ALL) {
      // A method's caller sees no Retry-After, but a request answering with backpressure does.
      if (onBlock.retryAfterSeconds != OnBlock.RETRY_AFTER_AUTO || !reason.knowsWhenToRetry()) {
        fixed[reason.ordinal()] = build(reason, retryAfter(reason, 0));
      }
    }
  }

  /** The answer for a call blocked for {@code reason}; {@code waitNanos} until it could pass. */
  Blocked answer(Reason reason, long waitNanos) {
    Blocked b = fixed[reason.ordinal()];
    return b != null ? b : build(reason, retryAfter(reason, waitNanos));
  }

  private int retryAfter(Reason reason, long waitNanos) {
    int configured = onBlock.retryAfterSeconds;
    if (configured != OnBlock.RETRY_AFTER_AUTO) {
      return configured; // a fixed number of seconds, or -1 for none
    }
    if (!reason.knowsWhenToRetry()) {
      return 1;
    }
    long seconds = (waitNanos + 999_999_999L) / 1_000_000_000L;
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
  }

  private Blocked build(Reason reason, int retryAfterSeconds) {
    String message = "levee: " + resource + " blocked the call (" + reason.key + ")";
    if (exception != null) {
      return Blocked.method(resource, reason.key, message, exception, retryAfterSeconds);
    }
    int status;
    String body;
    if (fallback) {
      status = onBlock.fallback.status;
      body = onBlock.fallback.body;
    } else {
      status = onBlock.status != null ? onBlock.status : reason.defaultStatus;
      body = onBlock.body != null ? onBlock.body : message + "\n";
    }
    return new Blocked(
        resource,
        reason.key,
        message,
        status,
        retryAfterSeconds,
        body,
        contentType,
        headers,
        fallback,
        sqlState);
  }

  /**
   * What a request of this servlet resource (or {@code system}) answers in place of the 5xx it
   * ended with after {@code refused} refused one of its outbound calls: this resource's on-block,
   * status 503 unless it names one, {@code Retry-After: auto} taken from the refused call, and by
   * default the refused call's own message as the body.
   */
  Blocked backpressure(Blocked refused) {
    int status = onBlock.status != null ? onBlock.status : Defaults.STATUS_BACKPRESSURE;
    int retryAfter = onBlock.retryAfterSeconds;
    if (retryAfter == OnBlock.RETRY_AFTER_AUTO) {
      retryAfter = Math.max(1, refused.retryAfterSeconds);
    }
    String body = onBlock.body != null ? onBlock.body : refused.message + "\n";
    return new Blocked(
        refused.resource,
        refused.reason,
        refused.message,
        status,
        retryAfter,
        body,
        contentType,
        headers,
        false,
        sqlState);
  }

  private static String[] flatten(Map<String, String> map) {
    String[] flat = new String[map.size() * 2];
    int i = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      flat[i++] = e.getKey();
      flat[i++] = e.getValue();
    }
    return flat;
  }

  private static String contentType(String configured, Map<String, String> headers) {
    if (configured != null) {
      return configured;
    }
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (e.getKey().equalsIgnoreCase("Content-Type")) {
        return e.getValue();
      }
    }
    return Defaults.CONTENT_TYPE;
  }
}
