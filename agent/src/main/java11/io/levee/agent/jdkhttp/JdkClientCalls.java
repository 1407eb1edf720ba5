package io.levee.agent.jdkhttp;

import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.bootstrap.jdkhttp.JdkHttpCalls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLSession;

/**
 * The logic of the {@code java.net.http.HttpClient} hooks that needs the client's types. Compiled
 * for Java 11 and kept apart from the agent's Java 8 classes (none of them refers to it): the agent
 * defines it, and its nested classes, in a loader whose parent is the {@code java.net.http}
 * module's (the platform loader), so it only ever loads where that module exists.
 *
 * <p>Outcome: the future of the response completes after the body handler's {@code getBody()} does
 * — after the whole body for {@code ofString} and {@code ofByteArray}, with the response headers
 * for streaming handlers such as {@code ofInputStream} and {@code ofLines} — and that is where the
 * call ends for the breaker, the limits and the slow-call time. Cancelling the future gives the
 * permit back without counting the call either way.
 *
 * <p>Fallback: a response of the client's own {@code HttpResponse} type, whose body is what the
 * caller's handler makes of the fallback's bytes, offered the way the client offers a body to a
 * handler: one subscription, one buffer on the first request, then the end.
 */
public final class JdkClientCalls implements JdkHttpCalls {
  @Override
  public Object enter(Object request) {
    HttpRequest r = (HttpRequest) request;
    return Levee.httpEnter(r.method(), String.valueOf(r.uri()));
  }

  @Override
  public void track(Object future, Object permit, long start, Object request) {
    ((CompletableFuture<?>) future)
        .whenComplete(
            (response, error) ->
                done(permit, start, (HttpRequest) request, (HttpResponse<?>) response, error));
  }

  @Override
  public Object fallback(Object request, Object handler, HttpAnswer answer) {
    return answer((HttpRequest) request, (BodyHandler<?>) handler, answer);
  }

  /** Reports the outcome once; whatever fails around it, the permit goes back. */
  private static void done(
      Object permit, long start, HttpRequest request, HttpResponse<?> response, Throwable error) {
    if (error != null) {
      Throwable cause = unwrap(error);
      if (cause instanceof CancellationException) {
        Levee.exit(permit, start, Dispatcher.STATUS_ABANDONED, null);
      } else {
        Levee.exit(permit, start, -1, cause);
      }
      return;
    }
    LastGoodKeeper keeper = null;
    try {
      keeper = keeper(permit, request, response);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    Levee.exit(permit, start, response.statusCode(), null);
    try {
      // After the outcome: what fails from here on leaves the call's answer alone.
      Faults.at(Faults.HTTP_EXIT);
      if (keeper != null) {
        keep(keeper, response);
      }
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }

  /** The exception that ended the call, out of the wrappers a future adds. */
  private static Throwable unwrap(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  // The last good answer: only a body the handler read whole (a String or a byte[]); a streamed one
  // is read by the application after the call ended.

  private static LastGoodKeeper keeper(
      Object permit, HttpRequest request, HttpResponse<?> response) {
    Object body = response.body();
    if (!(body instanceof String || body instanceof byte[])
        || response.statusCode() / 100 != 2
        || !"GET".equals(request.method())
        || !Levee.keepsLastGood(permit)) {
      return null;
    }
    List<String> headers = new ArrayList<>();
    for (Map.Entry<String, List<String>> h : response.headers().map().entrySet()) {
      for (String value : h.getValue()) {
        headers.add(h.getKey());
        headers.add(value);
      }
    }
    return Levee.lastGood(
        permit,
        request.method(),
        String.valueOf(request.uri()),
        response.statusCode(),
        headers.toArray(new String[0]));
  }

  /**
   * A String body goes back to bytes in the charset the client decoded it with ({@code ofString}
   * takes the Content-Type's, UTF-8 without one).
   */
  private static void keep(LastGoodKeeper keeper, HttpResponse<?> response) {
    Object body = response.body();
    byte[] bytes =
        body instanceof byte[]
            ? (byte[]) body
            : ((String) body).getBytes(charset(response.headers()));
    BodyTee tee = new BodyTee(keeper);
    tee.copy(bytes, 0, bytes.length);
    tee.end();
  }

  private static Charset charset(HttpHeaders headers) {
    String type = headers.firstValue("Content-Type").orElse("");
    for (String param : type.split(";")) {
      String p = param.trim();
      if (p.regionMatches(true, 0, "charset=", 0, 8)) {
        try {
          return Charset.forName(p.substring(8).replace("\"", "").trim());
        } catch (RuntimeException unknown) {
          break;
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  // The fallback.

  private static <T> CompletableFuture<HttpResponse<T>> answer(
      HttpRequest request, BodyHandler<T> handler, HttpAnswer answer) {
    HttpHeaders headers = HttpHeaders.of(headerMap(answer), (name, value) -> true);
    try {
      BodySubscriber<T> subscriber =
          handler.apply(new Answer<T>(request, answer.status, headers, null));
      subscriber.onSubscribe(new OneBuffer(subscriber, answer.body()));
      return subscriber
          .getBody()
          .toCompletableFuture()
          .thenApply(body -> new Answer<T>(request, answer.status, headers, body));
    } catch (RuntimeException | Error e) {
      // What the client does when a handler fails: the call fails with it.
      return CompletableFuture.failedFuture(e);
    }
  }

  private static Map<String, List<String>> headerMap(HttpAnswer answer) {
    Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0; i < answer.headerCount(); i++) {
      map.computeIfAbsent(answer.headerName(i), name -> new ArrayList<>())
          .add(answer.headerValue(i));
    }
    return map;
  }

  /** A fallback as the client's own response type, and as the response info a handler takes. */
  static final class Answer<T> implements HttpResponse<T>, HttpResponse.ResponseInfo {
    private final HttpRequest request;
    private final int status;
    private final HttpHeaders headers;
    private final T body;

    Answer(HttpRequest request, int status, HttpHeaders headers, T body) {
      this.request = request;
      this.status = status;
      this.headers = headers;
      this.body = body;
    }

    @Override
    public int statusCode() {
      return status;
    }

    @Override
    public HttpRequest request() {
      return request;
    }

    @Override
    public Optional<HttpResponse<T>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public HttpHeaders headers() {
      return headers;
    }

    @Override
    public T body() {
      return body;
    }

    @Override
    public Optional<SSLSession> sslSession() {
      return Optional.empty();
    }

    @Override
    public URI uri() {
      return request.uri();
    }

    @Override
    public HttpClient.Version version() {
      return HttpClient.Version.HTTP_1_1;
    }

    @Override
    public String toString() {
      return "(" + request.method() + " " + request.uri() + ") " + status;
    }
  }

  /**
   * The fallback's body offered to a handler's subscriber: all of it in one buffer on the first
   * request, then the end; nothing after a cancel. Requests may come from any thread (a stream
   * handler's reader), and re-entrantly from within {@code onNext}; the flag lets one through.
   */
  static final class OneBuffer implements Flow.Subscription {
    private final BodySubscriber<?> subscriber;
    private final byte[] body;
    private final AtomicBoolean done = new AtomicBoolean();

    OneBuffer(BodySubscriber<?> subscriber, byte[] body) {
      this.subscriber = subscriber;
      this.body = body;
    }

    @Override
    public void request(long n) {
      if (!done.compareAndSet(false, true)) {
        return;
      }
      if (n <= 0) {
        subscriber.onError(new IllegalArgumentException("non-positive request: " + n));
        return;
      }
      if (body.length > 0) {
        subscriber.onNext(List.of(ByteBuffer.wrap(body)));
      }
      subscriber.onComplete();
    }

    @Override
    public void cancel() {
      done.set(true);
    }
  }
}
