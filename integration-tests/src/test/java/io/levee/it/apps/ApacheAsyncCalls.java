package io.levee.it.apps;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityConsumer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicResponseConsumer;
import org.apache.hc.core5.util.Timeout;

/**
 * {@code /apache-async?url=&consumer=&responseTimeout=&repeat=&parallel=} and {@code
 * /apache-async?leased}: outbound calls through Apache HttpClient 5's async client, one client and
 * pool for the whole application, as applications keep them. A call waits on its future and answers
 * the result (or the future's failure) and how the caller's {@code FutureCallback} was told, on
 * which thread; {@code consumer=message} uses a {@code BasicResponseConsumer} instead of the {@code
 * SimpleHttpResponse} one. {@code repeat=N} makes N calls one after another, {@code parallel=N}
 * starts N at once from N threads and waits for all; both answer counts. {@code leased} answers the
 * pool's leased connections.
 */
public final class ApacheAsyncCalls {
  private static final PoolingAsyncClientConnectionManager POOL =
      PoolingAsyncClientConnectionManagerBuilder.create().setMaxConnPerRoute(50).build();
  private static final CloseableHttpAsyncClient CLIENT =
      HttpAsyncClients.custom().setConnectionManager(POOL).build();

  static {
    CLIENT.start();
  }

  private ApacheAsyncCalls() {}

  public static String handle(Map<String, String> q) {
    try {
      return answer(q);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Lines().put("outcome", "interrupted").toString();
    }
  }

  private static String answer(Map<String, String> q) throws InterruptedException {
    if (q.containsKey("leased")) {
      return new Lines().put("leased", POOL.getTotalStats().getLeased()).toString();
    }
    if (q.containsKey("parallel")) {
      return parallel(q, Integer.parseInt(q.get("parallel")));
    }
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    return repeat > 1 ? repeated(q, repeat) : once(q, new Lines()).toString();
  }

  private static Lines once(Map<String, String> q, Lines out) throws InterruptedException {
    Told told = new Told();
    long start = System.nanoTime();
    try {
      Object result = call(q, told).get(30, TimeUnit.SECONDS);
      out.put("outcome", "response").put("resultClass", result.getClass().getName());
      describe(result, out);
    } catch (ExecutionException e) {
      out.exception(e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      out.put("outcome", "hang");
    }
    out.put("elapsedMs", (System.nanoTime() - start) / 1_000_000);
    try {
      out.put("callback", told.outcome.get(5, TimeUnit.SECONDS))
          .put("callbackOnCaller", told.thread == Thread.currentThread());
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      out.put("callback", "never");
    }
    return out;
  }

  private static String repeated(Map<String, String> q, int repeat) throws InterruptedException {
    long[] nanos = new long[repeat];
    int levee = 0;
    for (int i = 0; i < repeat; i++) {
      long start = System.nanoTime();
      try {
        call(q, new Told()).get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        levee += isLevee(e.getCause()) ? 1 : 0;
      } catch (java.util.concurrent.TimeoutException e) {
        // counted as neither
      }
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return new Lines()
        .put("calls", repeat)
        .put("leveeExceptions", levee)
        .put("medianNanos", nanos[repeat / 2])
        .toString();
  }

  /** N callers start together; each waits for its own future. */
  private static String parallel(Map<String, String> q, int callers) throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<String>> outcomes = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      CompletableFuture<String> outcome = new CompletableFuture<>();
      outcomes.add(outcome);
      Thread caller =
          new Thread(
              () -> {
                try {
                  go.await();
                  Object result = call(q, new Told()).get(30, TimeUnit.SECONDS);
                  outcome.complete("response " + status(result));
                } catch (ExecutionException e) {
                  outcome.complete(isLevee(e.getCause()) ? "levee" : "exception");
                } catch (Exception e) {
                  outcome.complete("exception");
                }
              });
      caller.start();
    }
    go.countDown();
    int responses = 0;
    int levee = 0;
    int other = 0;
    for (CompletableFuture<String> outcome : outcomes) {
      String o = outcome.join();
      if (o.startsWith("response 2")) {
        responses++;
      } else if (o.equals("levee")) {
        levee++;
      } else {
        other++;
      }
    }
    return new Lines()
        .put("responses", responses)
        .put("leveeExceptions", levee)
        .put("others", other)
        .toString();
  }

  private static Future<?> call(Map<String, String> q, Told told) {
    URI url = URI.create(q.get("url"));
    if ("message".equals(q.get("consumer"))) {
      return CLIENT.execute(
          new BasicRequestProducer("GET", url),
          new BasicResponseConsumer<>(new StringAsyncEntityConsumer()),
          told.as());
    }
    SimpleHttpRequest request = SimpleRequestBuilder.get(url).build();
    if (q.containsKey("responseTimeout")) {
      request.setConfig(
          RequestConfig.custom()
              .setResponseTimeout(Timeout.ofMilliseconds(Long.parseLong(q.get("responseTimeout"))))
              .build());
    }
    return CLIENT.execute(request, told.as());
  }

  private static void describe(Object result, Lines out) {
    if (result instanceof SimpleHttpResponse r) {
      out.put("status", r.getCode()).put("body", r.getBodyText());
      if (r.getContentType() != null) {
        out.put("contentType", r.getContentType().toString());
      }
    } else if (result instanceof Message<?, ?> m) {
      out.put("status", ((HttpResponse) m.getHead()).getCode()).put("body", m.getBody());
    }
  }

  private static int status(Object result) {
    if (result instanceof HttpResponse r) {
      return r.getCode();
    }
    return result instanceof Message<?, ?> m ? ((HttpResponse) m.getHead()).getCode() : -1;
  }

  private static boolean isLevee(Throwable e) {
    return e instanceof java.io.IOException
        && e.getMessage() != null
        && e.getMessage().startsWith("levee:");
  }

  /** The caller's callback: how it was told, and on which thread. */
  private static final class Told implements FutureCallback<Object> {
    final CompletableFuture<String> outcome = new CompletableFuture<>();
    volatile Thread thread;

    @SuppressWarnings("unchecked")
    <T> FutureCallback<T> as() {
      return (FutureCallback<T>) this;
    }

    @Override
    public void completed(Object result) {
      thread = Thread.currentThread();
      outcome.complete("completed " + status(result));
    }

    @Override
    public void failed(Exception ex) {
      thread = Thread.currentThread();
      outcome.complete("failed " + ex.getMessage());
    }

    @Override
    public void cancelled() {
      thread = Thread.currentThread();
      outcome.complete("cancelled");
    }
  }
}
