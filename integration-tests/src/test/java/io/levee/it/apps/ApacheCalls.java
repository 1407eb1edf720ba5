package io.levee.it.apps;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.ResponseErrorHandler;
import org.springframework.web.client.RestTemplate;

/**
 * {@code /apache?client=hc4|hc5|rest&url=&form=&method=&readTimeout=&repeat=&parallel=}: outbound
 * calls the way applications make them with Apache HttpClient 4 ({@code hc4}), Apache HttpClient 5
 * classic ({@code hc5}) and Spring's RestTemplate over HttpClient 4 ({@code rest}), each through
 * one pooled client for the whole application. {@code form} picks the API: {@code plain} ({@code
 * execute} returning the response), {@code handler} (the response handler forms) or {@code open}
 * (HttpClient 5's {@code executeOpen}). {@code readTimeout} is set on the request's own
 * configuration. Answers the status, body, content type and response type, or the exception and its
 * cause; {@code repeat=N} makes N calls one after the other and {@code parallel=N} N at once,
 * answering counts. Every answer ends with the connections the client's pool still has leased.
 */
public final class ApacheCalls {
  private static final Hc4 HC4 = new Hc4();
  private static final Hc5 HC5 = new Hc5();
  private static final Rest REST = new Rest();

  private ApacheCalls() {}

  /** One client: makes a call, describing its response into the lines, and counts its pool. */
  private interface Client {
    void call(Map<String, String> q, Lines out) throws Exception;

    int leased();
  }

  public static String handle(Map<String, String> q) {
    Client client =
        switch (q.getOrDefault("client", "hc4")) {
          case "hc5" -> HC5;
          case "rest" -> REST;
          default -> HC4;
        };
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    int parallel = Integer.parseInt(q.getOrDefault("parallel", "1"));
    String answer;
    if (parallel > 1) {
      answer = parallel(client, q, parallel);
    } else if (repeat > 1) {
      answer = repeated(client, q, repeat);
    } else {
      answer = once(client, q).toString();
    }
    return answer + new Lines().put("leased", client.leased());
  }

  private static Lines once(Client client, Map<String, String> q) {
    Lines out = new Lines();
    long start = System.nanoTime();
    try {
      client.call(q, out);
      out.put("outcome", "response");
    } catch (Exception e) {
      out.exception(e);
      if (e.getCause() != null) {
        out.put("cause", e.getCause().getClass().getName())
            .put("causeMessage", e.getCause().getMessage());
      }
    }
    return out.put("elapsedMs", (System.nanoTime() - start) / 1_000_000);
  }

  private static String repeated(Client client, Map<String, String> q, int repeat) {
    List<Lines> all = new ArrayList<>();
    long[] nanos = new long[repeat];
    for (int i = 0; i < repeat; i++) {
      long start = System.nanoTime();
      all.add(once(client, q));
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return counts(all).put("medianNanos", nanos[repeat / 2]) + all.get(repeat - 1).toString();
  }

  /** {@code n} calls released at once from {@code n} threads. */
  private static String parallel(Client client, Map<String, String> q, int n) {
    ExecutorService threads = Executors.newFixedThreadPool(n);
    try {
      CountDownLatch ready = new CountDownLatch(n);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Lines>> calls = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        calls.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return once(client, q);
                }));
      }
      ready.await(10, TimeUnit.SECONDS);
      go.countDown();
      List<Lines> all = new ArrayList<>();
      for (Future<Lines> call : calls) {
        all.add(call.get(60, TimeUnit.SECONDS));
      }
      return counts(all).toString();
    } catch (Exception e) {
      return new Lines().exception(e).toString();
    } finally {
      threads.shutdownNow();
    }
  }

  private static Lines counts(List<Lines> all) {
    int responses = 0;
    int levee = 0;
    int exceptions = 0;
    int ok = 0;
    for (Lines l : all) {
      String text = l.toString();
      if (text.contains("outcome=response")) {
        responses++;
        ok += text.contains("status=200\n") ? 1 : 0;
      } else {
        exceptions++;
        levee += text.contains("message=levee:") || text.contains("causeMessage=levee:") ? 1 : 0;
      }
    }
    return new Lines()
        .put("calls", all.size())
        .put("responses", responses)
        .put("ok", ok)
        .put("exceptions", exceptions)
        .put("leveeExceptions", levee);
  }

  /** Apache HttpClient 4.5, pooled. */
  private static final class Hc4 implements Client {
    final org.apache.http.impl.conn.PoolingHttpClientConnectionManager pool = hc4Pool();
    final CloseableHttpClient client = HttpClients.custom().setConnectionManager(pool).build();

    @Override
    public void call(Map<String, String> q, Lines out) throws IOException {
      String url = q.get("url");
      HttpRequestBase request =
          "POST".equals(q.get("method")) ? new HttpPost(url) : new HttpGet(url);
      if (q.containsKey("readTimeout")) {
        int ms = Integer.parseInt(q.get("readTimeout"));
        request.setConfig(RequestConfig.custom().setSocketTimeout(ms).build());
      }
      if ("handler".equals(q.get("form"))) {
        client.execute(request, r -> describe(r, out));
      } else {
        try (CloseableHttpResponse r = client.execute(request)) {
          describe(r, out);
        }
      }
    }

    private static Lines describe(org.apache.http.HttpResponse r, Lines out) throws IOException {
      org.apache.http.Header type = r.getFirstHeader("Content-Type");
      return out.put("status", r.getStatusLine().getStatusCode())
          .put("body", EntityUtils.toString(r.getEntity()))
          .put("contentType", type == null ? "" : type.getValue())
          .put("type", r instanceof CloseableHttpResponse ? "CloseableHttpResponse" : "other");
    }

    @Override
    public int leased() {
      return pool.getTotalStats().getLeased();
    }
  }

  /** Apache HttpClient 5 classic, pooled. */
  private static final class Hc5 implements Client {
    final PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
    final org.apache.hc.client5.http.impl.classic.CloseableHttpClient client =
        org.apache.hc.client5.http.impl.classic.HttpClients.custom()
            .setConnectionManager(pool)
            .build();

    Hc5() {
      pool.setMaxTotal(50);
      pool.setDefaultMaxPerRoute(20);
    }

    @Override
    public void call(Map<String, String> q, Lines out) throws Exception {
      String url = q.get("url");
      org.apache.hc.client5.http.classic.methods.HttpUriRequestBase request =
          "POST".equals(q.get("method"))
              ? new org.apache.hc.client5.http.classic.methods.HttpPost(url)
              : new org.apache.hc.client5.http.classic.methods.HttpGet(url);
      if (q.containsKey("readTimeout")) {
        long ms = Long.parseLong(q.get("readTimeout"));
        request.setConfig(
            org.apache.hc.client5.http.config.RequestConfig.custom()
                .setResponseTimeout(ms, TimeUnit.MILLISECONDS)
                .build());
      }
      switch (q.getOrDefault("form", "plain")) {
        case "handler" -> client.execute(request, r -> describe(r, out));
        case "open" -> {
          try (org.apache.hc.core5.http.ClassicHttpResponse r =
              client.executeOpen(null, request, null)) {
            describe(r, out);
          }
        }
        default -> {
          try (org.apache.hc.client5.http.impl.classic.CloseableHttpResponse r =
              client.execute(request)) {
            describe(r, out);
          }
        }
      }
    }

    private static Lines describe(org.apache.hc.core5.http.ClassicHttpResponse r, Lines out)
        throws IOException, org.apache.hc.core5.http.ParseException {
      org.apache.hc.core5.http.Header type = r.getFirstHeader("Content-Type");
      return out.put("status", r.getCode())
          .put("body", org.apache.hc.core5.http.io.entity.EntityUtils.toString(r.getEntity()))
          .put("contentType", type == null ? "" : type.getValue())
          .put(
              "type",
              r instanceof org.apache.hc.client5.http.impl.classic.CloseableHttpResponse
                  ? "CloseableHttpResponse"
                  : "other");
    }

    @Override
    public int leased() {
      return pool.getTotalStats().getLeased();
    }
  }

  /**
   * RestTemplate over HttpClient 4, answering every status as a response (no error handler), so the
   * test reads a fallback's status and body as the application would.
   */
  private static final class Rest implements Client {
    final org.apache.http.impl.conn.PoolingHttpClientConnectionManager pool = hc4Pool();
    final CloseableHttpClient client = HttpClients.custom().setConnectionManager(pool).build();

    final RestTemplate shared = template(new HttpComponentsClientHttpRequestFactory(client));

    @Override
    public void call(Map<String, String> q, Lines out) {
      RestTemplate rest = shared;
      if (q.containsKey("readTimeout")) {
        HttpComponentsClientHttpRequestFactory factory =
            new HttpComponentsClientHttpRequestFactory(client);
        factory.setReadTimeout(Integer.parseInt(q.get("readTimeout")));
        rest = template(factory);
      }
      HttpMethod method = "POST".equals(q.get("method")) ? HttpMethod.POST : HttpMethod.GET;
      ResponseEntity<String> r = rest.exchange(q.get("url"), method, null, String.class);
      org.springframework.http.MediaType type = r.getHeaders().getContentType();
      out.put("status", r.getStatusCodeValue())
          .put("body", r.getBody() == null ? "" : r.getBody())
          .put("contentType", type == null ? "" : type.toString())
          .put("type", "ResponseEntity");
    }

    private static RestTemplate template(HttpComponentsClientHttpRequestFactory factory) {
      RestTemplate rest = new RestTemplate(factory);
      rest.setErrorHandler(
          new ResponseErrorHandler() {
            @Override
            public boolean hasError(org.springframework.http.client.ClientHttpResponse r) {
              return false;
            }

            @Override
            public void handleError(org.springframework.http.client.ClientHttpResponse r) {}
          });
      return rest;
    }

    @Override
    public int leased() {
      return pool.getTotalStats().getLeased();
    }
  }

  private static org.apache.http.impl.conn.PoolingHttpClientConnectionManager hc4Pool() {
    org.apache.http.impl.conn.PoolingHttpClientConnectionManager pool =
        new org.apache.http.impl.conn.PoolingHttpClientConnectionManager();
    pool.setMaxTotal(50);
    pool.setDefaultMaxPerRoute(20);
    return pool;
  }
}
