package io.levee.agent.apache4;

import io.levee.bootstrap.http.BlockingClientCalls;
import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.TeeInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;
import org.apache.http.HttpVersion;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.HttpEntityWrapper;
import org.apache.http.message.BasicHttpResponse;
import org.apache.http.message.BasicStatusLine;

/**
 * What the Apache HttpClient 4 hooks need done with the client's own types. Compiled against
 * httpclient 4.5 and defined beside each loader's copy of it (never loaded by the agent's own
 * loader), so a fallback is a {@code CloseableHttpResponse} of the application's own copy.
 */
public final class Apache4ClientCalls implements BlockingClientCalls {
  @Override
  public String method(Object request) {
    return ((HttpRequest) request).getRequestLine().getMethod();
  }

  /**
   * An absolute request URI as it is; otherwise the target (null for an absolute request, which the
   * client derives it from) and the request line's path.
   */
  @Override
  public String url(Object target, Object request) {
    HttpRequest r = (HttpRequest) request;
    if (r instanceof HttpUriRequest) {
      URI uri = ((HttpUriRequest) r).getURI();
      if (uri != null && uri.isAbsolute()) {
        return uri.toString();
      }
    }
    String path = r.getRequestLine().getUri();
    if (path.startsWith("http://") || path.startsWith("https://")) {
      return path;
    }
    if (target == null) {
      return null;
    }
    return ((HttpHost) target).toURI() + (path.startsWith("/") ? path : "/" + path);
  }

  @Override
  public int status(Object response) {
    return ((HttpResponse) response).getStatusLine().getStatusCode();
  }

  @Override
  public String[] headers(Object response) {
    Header[] all = ((HttpResponse) response).getAllHeaders();
    String[] headers = new String[2 * all.length];
    for (int i = 0; i < all.length; i++) {
      headers[2 * i] = all[i].getName();
      headers[2 * i + 1] = all[i].getValue();
    }
    return headers;
  }

  @Override
  public Object fallback(HttpAnswer answer) {
    return new Fallback(answer);
  }

  /** A timeout of the request's configuration is unset while negative, the builder's default. */
  @Override
  public Object withTimeouts(Object config, int connectMillis, int readMillis) {
    RequestConfig c = (RequestConfig) config;
    boolean connect = connectMillis > 0 && c.getConnectTimeout() < 0;
    boolean read = readMillis > 0 && c.getSocketTimeout() < 0;
    if (!connect && !read) {
      return c;
    }
    RequestConfig.Builder b = RequestConfig.copy(c);
    if (connect) {
      b.setConnectTimeout(connectMillis);
    }
    if (read) {
      b.setSocketTimeout(readMillis);
    }
    return b.build();
  }

  @Override
  public void teeBody(Object response, BodyTee tee) {
    HttpResponse r = (HttpResponse) response;
    HttpEntity entity = r.getEntity();
    if (entity == null) {
      tee.end();
    } else {
      r.setEntity(new TeeEntity(entity, tee));
    }
  }

  /**
   * A fallback in the type {@code doExecute} returns: the client's own {@code HttpResponseProxy} is
   * package-private. Its entity is repeatable, so the {@code ResponseHandler} forms, {@code
   * EntityUtils} and a second read all work; there is no connection to give back on close.
   */
  static final class Fallback extends BasicHttpResponse implements CloseableHttpResponse {
    Fallback(HttpAnswer answer) {
      super(new BasicStatusLine(HttpVersion.HTTP_1_1, answer.status, answer.reason));
      for (int i = 0; i < answer.headerCount(); i++) {
        addHeader(answer.headerName(i), answer.headerValue(i));
      }
      ByteArrayEntity entity = new ByteArrayEntity(answer.body());
      // As a string, not a ContentType: a rules file's type need not parse as one.
      entity.setContentType(answer.header("Content-Type"));
      setEntity(entity);
    }

    @Override
    public void close() {}
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
