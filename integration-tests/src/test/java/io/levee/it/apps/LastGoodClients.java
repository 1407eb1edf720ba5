package io.levee.it.apps;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.http.Header;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * One {@code GET} of {@link LastGoodApp} through a named client, each made once for the whole
 * application with its defaults (so Apache HttpClient 4 and 5 and OkHttp ask for gzip and
 * decompress it, and follow redirects; the JDK client is told to follow them too): {@code huc}
 * ({@code HttpURLConnection}, the default), {@code hc4}, {@code hc5} (classic), {@code okhttp} (the
 * line on the class path), {@code hc5async} (Apache HttpClient 5's async client, which hands over a
 * {@code SimpleHttpResponse} holding the whole body; the caller waits on the future and on its
 * {@code FutureCallback}) or {@code jdk} ({@code java.net.http.HttpClient}). The body is read
 * either as a stream or, with {@code text}, whole through the client's own API ({@code
 * EntityUtils.toString}, {@code ResponseBody.string()}, {@code SimpleHttpResponse.getBodyText()},
 * {@code BodyHandlers.ofString()}).
 */
final class LastGoodClients {
  private static final CloseableHttpClient HC4 = HttpClients.createDefault();
  private static final org.apache.hc.client5.http.impl.classic.CloseableHttpClient HC5 =
      org.apache.hc.client5.http.impl.classic.HttpClients.createDefault();
  private static final OkHttpClient OKHTTP = new OkHttpClient();
  private static final HttpClient JDK =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  private LastGoodClients() {}

  /** A response whose body the caller reads once, one way or the other, then closes. */
  interface Exchange extends AutoCloseable {
    int status();

    /** The header's first value, or the empty string. */
    String header(String name);

    InputStream body() throws IOException;

    String text() throws Exception;

    /** The jar the client was loaded from, or the empty string for the JDK's own. */
    String library();

    /** How the caller's callback was told of the outcome, for a client that takes one. */
    default String callback() {
      return "";
    }

    @Override
    void close() throws IOException;
  }

  static Exchange get(String client, String url, boolean text) throws Exception {
    return switch (client) {
      case "hc4" -> hc4(url);
      case "hc5" -> hc5(url);
      case "hc5async" -> hc5async(url);
      case "okhttp" -> okhttp(url);
      case "jdk" -> jdk(url, text);
      default -> huc(url);
    };
  }

  private static Exchange huc(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setReadTimeout(10_000);
    int status = c.getResponseCode();
    return new Exchange() {
      private InputStream body;

      @Override
      public int status() {
        return status;
      }

      @Override
      public String header(String name) {
        String value = c.getHeaderField(name);
        return value == null ? "" : value;
      }

      @Override
      public InputStream body() throws IOException {
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        body = in == null ? new ByteArrayInputStream(new byte[0]) : in;
        return body;
      }

      @Override
      public String text() throws IOException {
        return new String(body().readAllBytes(), StandardCharsets.UTF_8);
      }

      @Override
      public String library() {
        return "";
      }

      @Override
      public void close() throws IOException {
        if (body != null) {
          body.close();
        }
      }
    };
  }

  private static Exchange hc4(String url) throws IOException {
    CloseableHttpResponse r = HC4.execute(new HttpGet(url));
    return new Exchange() {
      @Override
      public int status() {
        return r.getStatusLine().getStatusCode();
      }

      @Override
      public String header(String name) {
        Header h = r.getFirstHeader(name);
        return h == null ? "" : h.getValue();
      }

      @Override
      public InputStream body() throws IOException {
        return r.getEntity().getContent();
      }

      @Override
      public String text() throws IOException {
        return EntityUtils.toString(r.getEntity());
      }

      @Override
      public String library() {
        return jar(HttpGet.class);
      }

      @Override
      public void close() throws IOException {
        r.close();
      }
    };
  }

  @SuppressWarnings("deprecation") // execute(request): the form most code written for 5.0/5.1 has
  private static Exchange hc5(String url) throws IOException {
    org.apache.hc.client5.http.impl.classic.CloseableHttpResponse r =
        HC5.execute(new org.apache.hc.client5.http.classic.methods.HttpGet(url));
    return new Exchange() {
      @Override
      public int status() {
        return r.getCode();
      }

      @Override
      public String header(String name) {
        org.apache.hc.core5.http.Header h = r.getFirstHeader(name);
        return h == null ? "" : h.getValue();
      }

      @Override
      public InputStream body() throws IOException {
        return r.getEntity().getContent();
      }

      @Override
      public String text() throws Exception {
        return org.apache.hc.core5.http.io.entity.EntityUtils.toString(r.getEntity());
      }

      @Override
      public String library() {
        return jar(org.apache.hc.client5.http.classic.methods.HttpGet.class);
      }

      @Override
      public void close() throws IOException {
        r.close();
      }
    };
  }

  /** The future's result must be a {@code SimpleHttpResponse}, from a live call or a fallback. */
  private static Exchange hc5async(String url) throws Exception {
    CompletableFuture<String> told = new CompletableFuture<>();
    FutureCallback<SimpleHttpResponse> callback =
        new FutureCallback<>() {
          @Override
          public void completed(SimpleHttpResponse result) {
            told.complete("completed " + result.getCode());
          }

          @Override
          public void failed(Exception ex) {
            told.complete("failed " + ex);
          }

          @Override
          public void cancelled() {
            told.complete("cancelled");
          }
        };
    Object result =
        Async.CLIENT
            .execute(SimpleRequestBuilder.get(url).build(), callback)
            .get(30, TimeUnit.SECONDS);
    if (!(result instanceof SimpleHttpResponse r)) {
      throw new IllegalStateException("the future holds a " + result.getClass().getName());
    }
    // the client calls back just after the waiters wake
    String outcome = told.get(5, TimeUnit.SECONDS);
    return new Exchange() {
      @Override
      public int status() {
        return r.getCode();
      }

      @Override
      public String header(String name) {
        org.apache.hc.core5.http.Header h = r.getFirstHeader(name);
        return h == null ? "" : h.getValue();
      }

      @Override
      public InputStream body() {
        byte[] bytes = r.getBodyBytes();
        return new ByteArrayInputStream(bytes == null ? new byte[0] : bytes);
      }

      @Override
      public String text() {
        String text = r.getBodyText();
        return text == null ? "" : text;
      }

      @Override
      public String library() {
        return jar(SimpleHttpResponse.class);
      }

      @Override
      public String callback() {
        return outcome;
      }

      @Override
      public void close() {}
    };
  }

  private static Exchange okhttp(String url) throws IOException {
    Response r = OKHTTP.newCall(new Request.Builder().url(url).build()).execute();
    return new Exchange() {
      @Override
      public int status() {
        return r.code();
      }

      @Override
      public String header(String name) {
        String value = r.header(name);
        return value == null ? "" : value;
      }

      @Override
      public InputStream body() {
        return bodyOf(r).byteStream();
      }

      @Override
      public String text() throws IOException {
        return bodyOf(r).string();
      }

      @Override
      public String library() {
        return jar(OkHttpClient.class);
      }

      @Override
      public void close() {
        r.close();
      }
    };
  }

  private static ResponseBody bodyOf(Response r) {
    ResponseBody body = r.body();
    if (body == null) {
      throw new IllegalStateException("no body");
    }
    return body;
  }

  private static Exchange jdk(String url, boolean text) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).build();
    HttpResponse<?> r =
        text
            ? JDK.send(request, HttpResponse.BodyHandlers.ofString())
            : JDK.send(request, HttpResponse.BodyHandlers.ofInputStream());
    return new Exchange() {
      @Override
      public int status() {
        return r.statusCode();
      }

      @Override
      public String header(String name) {
        return r.headers().firstValue(name).orElse("");
      }

      @Override
      public InputStream body() {
        return (InputStream) r.body();
      }

      @Override
      public String text() {
        return (String) r.body();
      }

      @Override
      public String library() {
        return "";
      }

      @Override
      public void close() throws IOException {
        if (r.body() instanceof InputStream in) {
          in.close();
        }
      }
    };
  }

  /** The async client, started on first use only: its I/O reactor runs threads of its own. */
  private static final class Async {
    static final CloseableHttpAsyncClient CLIENT = HttpAsyncClients.createDefault();

    static {
      CLIENT.start();
    }
  }

  /** The file name of the jar {@code type} came from. */
  private static String jar(Class<?> type) {
    String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
