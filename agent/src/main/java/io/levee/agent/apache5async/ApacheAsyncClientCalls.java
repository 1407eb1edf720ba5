package io.levee.agent.apache5async;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.apache5async.ApacheAsyncCalls;
import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.client5.http.EndpointInfo;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.nio.AsyncConnectionEndpoint;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.BasicFuture;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5's async client in its own types, defined beside the application's copy of
 * httpclient5 (one instance per class loader, made by {@code LoaderCalls}).
 *
 * <p>The request is read from the producer before anything runs: {@code BasicRequestProducer} (and
 * {@code SimpleRequestProducer}, which every {@code SimpleHttpRequest} call uses) keeps it in a
 * private field with no getter, read through one cached {@link Field}. Any other producer hands its
 * request over only when the client asks it to send, inside {@code doExecute}: such calls are not
 * decided (not tracked), which the rules reference says.
 *
 * <p>A fallback drives the caller's own consumer with the fallback response (head, body, end of
 * stream), as the I/O reactor would, so each caller gets a result of the type it asked for. The
 * loader that defines this class defines no other, so instances made per fallback also serve as the
 * consumer's result callback, completing the future the caller holds.
 */
public final class ApacheAsyncClientCalls implements ApacheAsyncCalls, FutureCallback<Object> {
  private static final Field REQUEST = requestField();

  /** Whether {@code HttpClientContext.getRequestConfigOrDefault()} exists (5.4 and later). */
  private static final boolean OR_DEFAULT = hasOrDefault();

  /** The fallback's future, for an instance serving as a consumer's result callback; else null. */
  private final BasicFuture<Object> future;

  public ApacheAsyncClientCalls() {
    this(null);
  }

  private ApacheAsyncClientCalls(BasicFuture<Object> future) {
    this.future = future;
  }

  private static Field requestField() {
    try {
      Field f = BasicRequestProducer.class.getDeclaredField("request");
      f.setAccessible(true);
      return f;
    } catch (Exception e) {
      // Another httpcore5 than the ones read, or a module that does not open it: untracked.
      return null;
    } catch (LinkageError e) {
      return null;
    }
  }

  private static boolean hasOrDefault() {
    try {
      HttpClientContext.class.getMethod("getRequestConfigOrDefault");
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  @Override
  public String[] request(Object target, Object producer) {
    if (REQUEST == null || !(producer instanceof BasicRequestProducer)) {
      return null;
    }
    HttpRequest request;
    try {
      request = (HttpRequest) REQUEST.get(producer);
    } catch (IllegalAccessException e) {
      return null;
    }
    String url = url((HttpHost) target, request);
    return url == null ? null : new String[] {request.getMethod(), url};
  }

  /**
   * The URL the client will contact: the target's scheme and authority when the caller named one
   * (the client routes to it), else the request's own, then the request's path with its query.
   * Built here rather than with {@code getUri()}, which caches its result in the request before the
   * client has filled in the scheme.
   */
  private static String url(HttpHost target, HttpRequest request) {
    String scheme;
    String host;
    int port;
    if (target != null) {
      scheme = target.getSchemeName();
      host = target.getHostName();
      port = target.getPort();
    } else {
      URIAuthority authority = request.getAuthority();
      if (authority == null) {
        return null;
      }
      scheme = request.getScheme() != null ? request.getScheme() : "http";
      host = authority.getHostName();
      port = authority.getPort();
    }
    String path = request.getPath();
    StringBuilder url = new StringBuilder(64).append(scheme).append("://").append(host);
    if (port >= 0) {
      url.append(':').append(port);
    }
    if (path == null || !path.startsWith("/")) {
      url.append('/');
    }
    return path == null ? url.toString() : url.append(path).toString();
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object blocked(
      Blocked blocked, Object producer, Object consumer, Object context, Object callback) {
    BasicFuture<Object> answer = new BasicFuture<Object>((FutureCallback<Object>) callback);
    AsyncResponseConsumer<Object> c = (AsyncResponseConsumer<Object>) consumer;
    AsyncRequestProducer p = (AsyncRequestProducer) producer;
    try {
      if (blocked.fallback) {
        fallback(HttpAnswer.of(blocked), c, (HttpContext) context, answer);
      } else {
        fail(new IOException(blocked.message), c, p, answer);
      }
    } catch (Throwable t) {
      // The woven execute returns this future whatever happens: a blocked call never hangs. The
      // caller sees the blocked call's own exception, and the agent's error is reported.
      HookErrors.report(t);
      failQuietly(answer, new IOException(blocked.message));
    } finally {
      // What the client does at the end of every exchange.
      releaseQuietly(c, p);
    }
    return answer;
  }

  /** As the client fails a call: the consumer and producer are told, then the future. */
  private static void fail(
      Exception e, AsyncResponseConsumer<Object> c, AsyncRequestProducer p, BasicFuture<Object> f) {
    try {
      c.failed(e);
    } catch (RuntimeException ignored) {
      // The application's consumer; the future fails all the same.
    }
    try {
      p.failed(e);
    } catch (RuntimeException ignored) {
      // The application's producer; as above.
    }
    try {
      f.failed(e);
    } catch (RuntimeException ignored) {
      // Thrown by the caller's callback, which on the I/O reactor would not reach the caller.
    }
  }

  private static void fallback(
      HttpAnswer answer,
      AsyncResponseConsumer<Object> c,
      HttpContext context,
      BasicFuture<Object> f) {
    BasicHttpResponse response = new BasicHttpResponse(answer.status, answer.reason);
    for (int i = 0; i < answer.headerCount(); i++) {
      response.addHeader(answer.headerName(i), answer.headerValue(i));
    }
    byte[] body = answer.body();
    EntityDetails entity =
        body.length == 0
            ? null
            : new BasicEntityDetails(body.length, contentType(answer.header("Content-Type")));
    try {
      c.consumeResponse(
          response,
          entity,
          context != null ? context : HttpClientContext.create(),
          new ApacheAsyncClientCalls(f));
      if (entity != null) {
        c.updateCapacity(increment -> {});
        c.consume(ByteBuffer.wrap(body));
        c.streamEnd(null);
      }
    } catch (Exception e) {
      try {
        c.failed(e);
      } catch (RuntimeException ignored) {
        // The application's consumer; the future fails all the same.
      }
      failQuietly(f, e);
    }
  }

  private static void failQuietly(BasicFuture<Object> f, Exception e) {
    try {
      f.failed(e);
    } catch (Throwable ignored) {
      // The caller's callback; the future has failed all the same.
    }
  }

  /**
   * Null, not a failure, for a type that does not parse (an unknown charset): the header has it.
   */
  private static ContentType contentType(String type) {
    try {
      return type == null ? null : ContentType.parse(type);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void releaseQuietly(AsyncResponseConsumer<Object> c, AsyncRequestProducer p) {
    try {
      c.releaseResources();
    } catch (RuntimeException ignored) {
      // The application's consumer.
    }
    try {
      p.releaseResources();
    } catch (RuntimeException ignored) {
      // The application's producer.
    }
  }

  // The consumer's result callback of a fallback: completes the caller's future.

  @Override
  public void completed(Object result) {
    future.completed(result);
  }

  @Override
  public void failed(Exception ex) {
    future.failed(ex);
  }

  @Override
  public void cancelled() {
    future.cancel();
  }

  @Override
  public int status(Object response) {
    return ((HttpResponse) response).getCode();
  }

  @Override
  public int statusOf(Object result) {
    if (result instanceof HttpResponse) {
      return ((HttpResponse) result).getCode();
    }
    if (result instanceof Message && ((Message<?, ?>) result).getHead() instanceof HttpResponse) {
      return ((HttpResponse) ((Message<?, ?>) result).getHead()).getCode();
    }
    return -1;
  }

  @Override
  public boolean decoded(Object response, Object entity) {
    return entity instanceof EntityDetails
        && ((EntityDetails) entity).getContentEncoding() == null
        && ((HttpResponse) response).containsHeader(HttpHeaders.CONTENT_ENCODING);
  }

  /**
   * Keeps a {@code SimpleHttpResponse}'s body, whole when the future completes. A body the client
   * decoded (5.6 asks for gzip and decompresses it unless told not to) is kept as the application
   * got it, without the {@code Content-Encoding}, {@code Content-Length} and {@code Content-MD5}
   * that the client leaves on the response: the keeper would refuse a body longer than announced,
   * and a kept answer served with them would announce gzip for a plain body.
   */
  @Override
  public void keepLastGood(
      Object result, Object permit, String method, String url, int status, boolean decoded) {
    if (!(result instanceof SimpleHttpResponse)) {
      return;
    }
    SimpleHttpResponse response = (SimpleHttpResponse) result;
    List<String> pairs = new ArrayList<String>();
    for (Header h : response.getHeaders()) {
      if (!decoded || !describesEncodedBody(h.getName())) {
        pairs.add(h.getName());
        pairs.add(h.getValue());
      }
    }
    LastGoodKeeper keeper =
        Levee.lastGood(permit, method, url, status, pairs.toArray(new String[0]));
    if (keeper == null) {
      return;
    }
    BodyTee tee = new BodyTee(keeper);
    byte[] body = response.getBodyBytes();
    if (body != null) {
      tee.copy(body, 0, body.length);
    }
    tee.end();
  }

  private static boolean describesEncodedBody(String name) {
    return name.equalsIgnoreCase(HttpHeaders.CONTENT_ENCODING)
        || name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)
        || name.equalsIgnoreCase(HttpHeaders.CONTENT_MD5);
  }

  @Override
  public void responseTimeout(Object endpoint, Object context, int millis) {
    if (!(context instanceof HttpClientContext)) {
      return;
    }
    RequestConfig config = requestConfig((HttpClientContext) context);
    if (config.getResponseTimeout() != null) {
      return;
    }
    AsyncConnectionEndpoint connection = (AsyncConnectionEndpoint) endpoint;
    if (multiplexed(connection)) {
      // One socket for many streams: the client sets no response timeout on HTTP/2 either.
      return;
    }
    connection.setSocketTimeout(Timeout.ofMilliseconds(millis));
  }

  /** The request config the exchange runs with, as the client itself reads it. */
  private static RequestConfig requestConfig(HttpClientContext context) {
    if (OR_DEFAULT) {
      return context.getRequestConfigOrDefault();
    }
    // Before 5.4 getRequestConfig() gave the default itself; keep to that if it ever gives null.
    RequestConfig config = context.getRequestConfig();
    return config != null ? config : RequestConfig.DEFAULT;
  }

  private static boolean multiplexed(AsyncConnectionEndpoint connection) {
    EndpointInfo info;
    try {
      info = connection.getInfo();
    } catch (LinkageError e) {
      // Before 5.4 endpoints tell nothing of their protocol; such a client sets the timeout.
      return false;
    }
    ProtocolVersion protocol = info != null ? info.getProtocol() : null;
    return protocol != null && protocol.greaterEquals(HttpVersion.HTTP_2);
  }
}
