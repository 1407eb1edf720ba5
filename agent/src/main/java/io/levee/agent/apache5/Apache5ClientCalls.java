package io.levee.agent.apache5;

import io.levee.bootstrap.http.BlockingClientCalls;
import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.TeeInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.client5.http.classic.ExecRuntime;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.util.Timeout;

/**
 * What the Apache HttpClient 5 classic hooks need done with the client's own types. Compiled
 * against httpclient5 5.6 and defined beside each loader's copy of it (never loaded by the agent's
 * own loader), so a fallback is a {@code CloseableHttpResponse} of the application's own copy.
 */
public final class Apache5ClientCalls implements BlockingClientCalls {
  @Override
  public String method(Object request) {
    return ((HttpRequest) request).getMethod();
  }

  /**
   * The host contacted, which is the target when there is one and else the request's own scheme and
   * authority (what the client derives the target from), then the request's path and query. Built
   * from the parts, not with {@code getUri()}, which caches a URI in the request.
   */
  @Override
  public String url(Object target, Object request) {
    HttpRequest r = (HttpRequest) request;
    String base;
    if (target != null) {
      base = ((HttpHost) target).toURI();
    } else {
      URIAuthority authority = r.getAuthority();
      if (authority == null) {
        return null;
      }
      String scheme = r.getScheme() != null ? r.getScheme() : "http";
      base = new HttpHost(scheme, authority.getHostName(), authority.getPort()).toURI();
    }
    String path = r.getPath();
    if (path == null || path.isEmpty()) {
      return base + "/";
    }
    if (path.startsWith("http://") || path.startsWith("https://")) {
      return path;
    }
    return base + (path.startsWith("/") ? path : "/" + path);
  }

  @Override
  public int status(Object response) {
    return ((HttpResponse) response).getCode();
  }

  /**
   * The headers of the body the application reads. Once the client decoded a gzip or deflate body,
   * the headers that describe the encoded one are left out: 5.6 decompresses without removing
   * {@code Content-Encoding}, {@code Content-Length} and {@code Content-MD5} (5.1 to 5.5 remove
   * them), and a kept answer served with them would announce gzip for a plain body.
   */
  @Override
  public String[] headers(Object response) {
    HttpResponse r = (HttpResponse) response;
    boolean decoded = decoded(r);
    Header[] all = r.getHeaders();
    List<String> headers = new ArrayList<String>(2 * all.length);
    for (Header h : all) {
      if (!decoded || !describesEncodedBody(h.getName())) {
        headers.add(h.getName());
        headers.add(h.getValue());
      }
    }
    return headers.toArray(new String[0]);
  }

  /** A {@code Content-Encoding} the entity no longer has: the client decoded the body. */
  private static boolean decoded(HttpResponse response) {
    if (!(response instanceof ClassicHttpResponse)
        || !response.containsHeader("Content-Encoding")) {
      return false;
    }
    HttpEntity entity = ((ClassicHttpResponse) response).getEntity();
    return entity != null && entity.getContentEncoding() == null;
  }

  private static boolean describesEncodedBody(String name) {
    return name.equalsIgnoreCase("Content-Encoding")
        || name.equalsIgnoreCase("Content-Length")
        || name.equalsIgnoreCase("Content-MD5");
  }

  /**
   * A {@code BasicClassicHttpResponse} with a repeatable entity, adapted to the final {@code
   * CloseableHttpResponse} the client returns (without an exec runtime: closing it gives nothing
   * back to the pool, as nothing was taken).
   */
  @Override
  public Object fallback(HttpAnswer answer) {
    BasicClassicHttpResponse response = new BasicClassicHttpResponse(answer.status, answer.reason);
    for (int i = 0; i < answer.headerCount(); i++) {
      response.addHeader(answer.headerName(i), answer.headerValue(i));
    }
    response.setEntity(new ByteArrayEntity(answer.body(), contentType(answer)));
    return adapt(response);
  }

  /**
   * A timeout of the request's configuration is unset while null, the default of both {@code
   * connectTimeout} (since 5.4; before, 3 minutes) and {@code responseTimeout}.
   */
  @Override
  @SuppressWarnings("deprecation") // connectTimeout moved to ConnectionConfig in 5.4; still read
  public Object withTimeouts(Object config, int connectMillis, int readMillis) {
    RequestConfig c = (RequestConfig) config;
    boolean connect = connectMillis > 0 && c.getConnectTimeout() == null;
    boolean read = readMillis > 0 && c.getResponseTimeout() == null;
    if (!connect && !read) {
      return c;
    }
    RequestConfig.Builder b = RequestConfig.copy(c);
    if (connect) {
      b.setConnectTimeout(Timeout.ofMilliseconds(connectMillis));
    }
    if (read) {
      b.setResponseTimeout(Timeout.ofMilliseconds(readMillis));
    }
    return b.build();
  }

  @Override
  public void teeBody(Object response, BodyTee tee) {
    ClassicHttpResponse r = (ClassicHttpResponse) response;
    HttpEntity entity = r.getEntity();
    if (entity == null) {
      tee.end();
    } else {
      r.setEntity(new TeeEntity(entity, tee));
    }
  }

  /** Null, not a failure, for a type a rules file wrote that does not parse: the header has it. */
  private static ContentType contentType(HttpAnswer answer) {
    String type = answer.header("Content-Type");
    try {
      return type == null ? null : ContentType.parse(type);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * {@code adapt} is public since 5.4; before, it is package-private (or missing), and so is the
   * constructor it calls.
   */
  private static CloseableHttpResponse adapt(ClassicHttpResponse response) {
    try {
      return CloseableHttpResponse.adapt(response);
    } catch (IllegalAccessError | NoSuchMethodError e) {
      try {
        Constructor<CloseableHttpResponse> c =
            CloseableHttpResponse.class.getDeclaredConstructor(
                ClassicHttpResponse.class, ExecRuntime.class);
        c.setAccessible(true);
        return c.newInstance(response, null);
      } catch (ReflectiveOperationException notThere) {
        throw new IllegalStateException("no way to make a CloseableHttpResponse", notThere);
      }
    }
  }

  /**
   * The live entity, whose content stream copies what the application reads into the tee; {@code
   * writeTo} reads through it too, so every way of consuming the body is seen.
   */
  static final class TeeEntity extends HttpEntityWrapper {
    private final BodyTee tee;

    TeeEntity(HttpEntity wrapped, BodyTee tee) {
      super(wrapped);
      this.tee = tee;
    }

    @Override
    public InputStream getContent() throws IOException {
      InputStream content = super.getContent();
      return content == null ? null : new TeeInputStream(content, tee);
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      InputStream in = getContent();
      if (in == null) {
        return;
      }
      try {
        byte[] buffer = new byte[4096];
        for (int n; (n = in.read(buffer)) != -1; ) {
          out.write(buffer, 0, n);
        }
      } finally {
        in.close();
      }
    }
  }
}
