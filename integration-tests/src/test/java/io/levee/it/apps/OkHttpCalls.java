package io.levee.it.apps;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.OkHttp3ClientHttpRequestFactory;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

/**
 * {@code /okhttp?url=&via=execute|enqueue|resttemplate&callTimeout=&repeat=&parallel=}: outbound
 * calls through one shared {@link OkHttpClient}, the way an application makes them: {@code
 * Call.execute}, {@code Call.enqueue} (the answer comes to a callback on OkHttp's dispatcher
 * thread) or Spring's {@code RestTemplate} over OkHttp. Compiled against OkHttp 4.12, it uses only
 * what 3.14 and 5.x have too, so it runs on every line ({@code ClientLines}). Answers the status,
 * body and content type, or the exception, with the thread that saw it; with {@code repeat=N} (one
 * after the other) or {@code parallel=N} (all at once) it answers counts. Every answer ends with
 * the pool's connections still in use once the calls are done ({@code inUse}).
 */
public final class OkHttpCalls {
  private static final OkHttpClient CLIENT = client();

  /** Made on first use: only some tests call through Spring. */
  private static final class Template {
    static final RestTemplate INSTANCE =
        new RestTemplate(new OkHttp3ClientHttpRequestFactory(CLIENT));
  }

  private OkHttpCalls() {}

  /** What one call gave: a status and body, or an exception; and on which thread. */
  private record Result(
      int status, String body, String contentType, Throwable error, String thread, long nanos) {
    boolean levee() {
      return error != null && String.valueOf(error.getMessage()).contains("levee:");
    }
  }

  public static String handle(Map<String, String> q) {
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    int parallel = Integer.parseInt(q.getOrDefault("parallel", "1"));
    if (repeat == 1 && parallel == 1) {
      Lines out = new Lines().put("okhttpJar", jar(OkHttpClient.class));
      describe(call(q), out);
      return inUse(out).toString();
    }
    List<Result> results = parallel > 1 ? parallel(q, parallel) : repeated(q, repeat);
    return inUse(counts(results)).toString();
  }

  /** The jar a class came from: which line of OkHttp the application runs. */
  private static String jar(Class<?> type) {
    String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static OkHttpClient client() {
    OkHttpClient client = new OkHttpClient();
    // enqueue's parallel callers all run at once, as execute's do.
    client.dispatcher().setMaxRequestsPerHost(64);
    return client;
  }

  private static Result call(Map<String, String> q) {
    long start = System.nanoTime();
    String via = q.getOrDefault("via", "execute");
    OkHttpClient client = CLIENT;
    if (q.containsKey("callTimeout")) {
      long ms = Long.parseLong(q.get("callTimeout"));
      client = CLIENT.newBuilder().callTimeout(ms, TimeUnit.MILLISECONDS).build();
    }
    Request request = new Request.Builder().url(q.get("url")).build();
    switch (via) {
      case "enqueue":
        return enqueue(client.newCall(request), start);
      case "resttemplate":
        return restTemplate(q.get("url"), start);
      default:
        try (Response response = client.newCall(request).execute()) {
          return read(response, start);
        } catch (IOException | RuntimeException e) {
          return failed(e, start);
        }
    }
  }

  private static Result enqueue(Call call, long start) {
    CompletableFuture<Result> answer = new CompletableFuture<>();
    call.enqueue(
        new Callback() {
          @Override
          public void onFailure(Call c, IOException e) {
            answer.complete(failed(e, start));
          }

          @Override
          public void onResponse(Call c, Response response) {
            try (Response r = response) {
              answer.complete(read(r, start));
            } catch (IOException | RuntimeException e) {
              answer.complete(failed(e, start));
            }
          }
        });
    try {
      return answer.get(60, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      return failed(e, start);
    }
  }

  private static Result restTemplate(String url, long start) {
    try {
      ResponseEntity<String> r = Template.INSTANCE.getForEntity(url, String.class);
      String type = r.getHeaders().getFirst("Content-Type");
      String thread = Thread.currentThread().getName();
      return new Result(
          r.getStatusCodeValue(), r.getBody(), type, null, thread, System.nanoTime() - start);
    } catch (HttpStatusCodeException e) {
      String type =
          e.getResponseHeaders() == null ? null : e.getResponseHeaders().getFirst("Content-Type");
      String thread = Thread.currentThread().getName();
      return new Result(
          e.getRawStatusCode(),
          e.getResponseBodyAsString(),
          type,
          null,
          thread,
          System.nanoTime() - start);
    } catch (ResourceAccessException e) {
      return failed(e, start);
    }
  }

  private static Result read(Response response, long start) throws IOException {
    ResponseBody body = response.body();
    return new Result(
        response.code(),
        body == null ? "" : body.string(),
        response.header("Content-Type"),
        null,
        Thread.currentThread().getName(),
        System.nanoTime() - start);
  }

  private static Result failed(Throwable e, long start) {
    return new Result(
        -1, null, null, e, Thread.currentThread().getName(), System.nanoTime() - start);
  }

  private static List<Result> repeated(Map<String, String> q, int repeat) {
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < repeat; i++) {
      results.add(call(q));
    }
    return results;
  }

  /** {@code n} callers released at once; enqueue's callers only enqueue, OkHttp runs the calls. */
  private static List<Result> parallel(Map<String, String> q, int n) {
    ExecutorService callers = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<Result>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        futures.add(
            callers.submit(
                () -> {
                  go.await();
                  return call(q);
                }));
      }
      go.countDown();
      List<Result> results = new ArrayList<>();
      for (Future<Result> f : futures) {
        results.add(f.get(90, TimeUnit.SECONDS));
      }
      return results;
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IllegalStateException(e);
    } finally {
      callers.shutdownNow();
    }
  }

  private static void describe(Result r, Lines out) {
    if (r.error() == null) {
      out.put("outcome", "response").put("status", r.status()).put("body", r.body());
      if (r.contentType() != null) {
        out.put("contentType", r.contentType());
      }
    } else {
      out.exception(r.error());
      Throwable cause = r.error().getCause();
      if (cause != null) {
        out.put("cause", cause.getClass().getName()).put("causeMessage", cause.getMessage());
      }
    }
    out.put("thread", r.thread()).put("elapsedMs", r.nanos() / 1_000_000);
  }

  private static Lines counts(List<Result> results) {
    Map<String, Integer> statuses = new TreeMap<>();
    int exceptions = 0;
    int levee = 0;
    int leveeOnOkHttpThreads = 0;
    long[] nanos = new long[results.size()];
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      nanos[i] = r.nanos();
      if (r.error() == null) {
        statuses.merge("status" + r.status(), 1, Integer::sum);
        continue;
      }
      exceptions++;
      if (r.levee()) {
        levee++;
        leveeOnOkHttpThreads += r.thread().startsWith("OkHttp") ? 1 : 0;
      }
    }
    Arrays.sort(nanos);
    Lines out =
        new Lines()
            .put("calls", results.size())
            .put("responses", results.size() - exceptions)
            .put("exceptions", exceptions)
            .put("leveeExceptions", levee)
            .put("leveeOnOkHttpThreads", leveeOnOkHttpThreads)
            .put("medianNanos", nanos[nanos.length / 2]);
    statuses.forEach(out::put);
    describe(results.get(results.size() - 1), out);
    return out;
  }

  /**
   * The pool's connections in use once the calls are done: each call has closed its response, so
   * every connection must be back in the pool (idle) or closed; waits a little for OkHttp to finish
   * a cancelled call's connection on its own thread.
   */
  private static Lines inUse(Lines out) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    int inUse;
    do {
      inUse =
          CLIENT.connectionPool().connectionCount() - CLIENT.connectionPool().idleConnectionCount();
      if (inUse == 0) {
        break;
      }
      AppProcess.pause(Map.of("ms", "20"));
    } while (System.nanoTime() < deadline);
    return out.put("inUse", inUse).put("connections", CLIENT.connectionPool().connectionCount());
  }
}
