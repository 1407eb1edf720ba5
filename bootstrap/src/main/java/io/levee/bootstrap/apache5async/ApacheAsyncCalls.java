package io.levee.bootstrap.apache5async;

import io.levee.bootstrap.Blocked;

/**
 * What the bridge asks of Apache HttpClient 5's async client, in its own types: the agent
 * implements it with a class compiled against httpclient5 and defined beside the application's copy
 * of it, one instance per class loader. Arguments are the client's objects passed as {@code
 * Object}; the bridge never looks inside them.
 */
public interface ApacheAsyncCalls {
  /**
   * The method and full URL of the request {@code producer} will send to {@code target} (which may
   * be null), as {@code {method, url}}; null when they cannot be read before the call runs.
   */
  String[] request(Object target, Object producer);

  /**
   * What {@code doExecute} returns instead of running for a blocked call: a future completed
   * exceptionally with an {@code IOException} carrying {@link Blocked#message}, or, for a fallback,
   * completed with what {@code consumer} made of the fallback response. Either way the caller's
   * {@code callback} is told, and the consumer and producer are released, as the client does.
   */
  Object blocked(
      Blocked blocked, Object producer, Object consumer, Object context, Object callback);

  /** The status code of the client's {@code HttpResponse}. */
  int status(Object response);

  /**
   * Whether the client decodes the body of {@code response} before the consumer gets it: the
   * response names a {@code Content-Encoding} that {@code entity}, the body's details as the
   * consumer is given them, no longer has (HttpClient 5.6 decompresses gzip and deflate and leaves
   * the response's headers as they came).
   */
  boolean decoded(Object response, Object entity);

  /** The status of a call's result when it is or carries a response ({@code Message}); else -1. */
  int statusOf(Object result);

  /**
   * Hands the body of {@code result} to the last-good keeper of {@code permit} when the result
   * holds the whole body ({@code SimpleHttpResponse}); other results are not kept. With {@code
   * decoded}, the headers that describe the encoded body are left out of what is kept.
   */
  void keepLastGood(
      Object result, Object permit, String method, String url, int status, boolean decoded);

  /**
   * Sets the socket timeout of the connection {@code endpoint} to {@code millis} for the exchange
   * about to run in {@code context}, unless the context's request config has a response timeout.
   */
  void responseTimeout(Object endpoint, Object context, int millis);
}
