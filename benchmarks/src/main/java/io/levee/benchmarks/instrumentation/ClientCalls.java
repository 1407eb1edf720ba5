package io.levee.benchmarks.instrumentation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the instrumentation costs one GET through each HTTP client Levee weaves besides {@code
 * HttpURLConnection}, to the same local server as {@link InstrumentedCalls} ({@link
 * InstrumentedCalls.LocalServer}), each client built once with its default pool and kept, as
 * applications keep them. Like {@link InstrumentedCalls} it knows nothing of Levee.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ClientCalls {
  @State(Scope.Benchmark)
  public static class Clients {
    String url;
    org.apache.http.impl.client.CloseableHttpClient apache4;
    CloseableHttpClient apache5;
    CloseableHttpAsyncClient apache5Async;
    OkHttpClient okHttp;
    HttpClient jdk;
    HttpRequest jdkRequest;

    @Setup(Level.Trial)
    public void start(InstrumentedCalls.LocalServer server) {
      url = server.url.toString();
      apache4 = org.apache.http.impl.client.HttpClients.createDefault();
      apache5 = HttpClients.createDefault();
      apache5Async = HttpAsyncClients.createDefault();
      apache5Async.start();
      okHttp = new OkHttpClient();
      jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      jdkRequest = HttpRequest.newBuilder(URI.create(url)).build();
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
      apache4.close();
      apache5.close();
      apache5Async.close();
      okHttp.dispatcher().executorService().shutdown();
      okHttp.connectionPool().evictAll();
    }
  }

  @Benchmark
  public int apache4Get(Clients c) throws IOException {
    try (org.apache.http.client.methods.CloseableHttpResponse r =
        c.apache4.execute(new org.apache.http.client.methods.HttpGet(c.url))) {
      return r.getStatusLine().getStatusCode()
          + org.apache.http.util.EntityUtils.toByteArray(r.getEntity()).length;
    }
  }

  @Benchmark
  public int apache5Get(Clients c) throws IOException {
    return c.apache5.execute(
        new HttpGet(c.url), r -> r.getCode() + EntityUtils.toByteArray(r.getEntity()).length);
  }

  @Benchmark
  public int apache5AsyncGet(Clients c) throws InterruptedException, ExecutionException {
    SimpleHttpRequest request = SimpleRequestBuilder.get(c.url).build();
    SimpleHttpResponse r = c.apache5Async.execute(request, null).get();
    return r.getCode() + r.getBodyBytes().length;
  }

  @Benchmark
  public int okHttpGet(Clients c) throws IOException {
    try (Response r = c.okHttp.newCall(new Request.Builder().url(c.url).build()).execute()) {
      return r.code() + r.body().bytes().length;
    }
  }

  @Benchmark
  public int jdkClientGet(Clients c) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = c.jdk.send(c.jdkRequest, HttpResponse.BodyHandlers.ofByteArray());
    return r.statusCode() + r.body().length;
  }
}
