package io.levee.it.apps;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code /jdkhttp?url=&api=send|async&body=string|bytes|stream|lines&timeout=&connectTimeout=
 * &repeat=&parallel=}: an outbound call through the JDK's {@code java.net.http.HttpClient}, the way
 * newer code makes it. One client for the application, made when this class loads (before an agent
 * attached later), unless {@code connectTimeout} asks for a client of its own. Answers the status,
 * the body as the handler gave it (a stream read to its end and closed) and the Content-Type, or
 * the exception {@code send} threw or {@code sendAsync}'s future completed with ({@code
 * failedAs=thrown|future}). {@code repeat=N} makes N calls one after another, {@code parallel=N} N
 * at once from N threads, and answer counts.
 */
public final class JdkClientCalls {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private JdkClientCalls() {}

  public static String handle(Map<String, String> q) {
    int parallel = Integer.parseInt(q.getOrDefault("parallel", "1"));
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    if (parallel > 1) {
      return parallel(q, parallel);
    }
    return repeat > 1 ? repeated(q, repeat) : once(q).toString();
  }

  private static Lines once(Map<String, String> q) {
    Lines out = new Lines();
    long start = System.nanoTime();
    try {
      call(q, out);
      out.put("outcome", "response");
    } catch (IOException e) {
      out.exception(e).put("failedAs", "thrown");
    } catch (ExecutionException e) {
      out.exception(e.getCause()).put("failedAs", "future");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out.exception(e);
    }
    return out.put("elapsedMs", (System.nanoTime() - start) / 1_000_000);
  }

  private static String repeated(Map<String, String> q, int repeat) {
    int levee = 0;
    Lines last = new Lines();
    for (int i = 0; i < repeat; i++) {
      last = once(q);
      if (last.toString().contains("\nmessage=levee:")) {
        levee++;
      }
    }
    return new Lines().put("calls", repeat).put("leveeExceptions", levee) + last.toString();
  }

  /** N callers released at once; counts of responses, levee: failures and other failures. */
  private static String parallel(Map<String, String> q, int callers) {
    ExecutorService threads = Executors.newFixedThreadPool(callers);
    CountDownLatch ready = new CountDownLatch(callers);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<String>> calls = new ArrayList<>();
    try {
      for (int i = 0; i < callers; i++) {
        calls.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return once(q).toString();
                }));
      }
      ready.await();
      go.countDown();
      int responses = 0;
      int levee = 0;
      int other = 0;
      for (Future<String> call : calls) {
        String reply = call.get();
        if (reply.contains("outcome=response")) {
          responses++;
        } else if (reply.contains("\nmessage=levee:")) {
          levee++;
        } else {
          other++;
        }
      }
      return new Lines()
          .put("responses", responses)
          .put("leveeExceptions", levee)
          .put("otherExceptions", other)
          .toString();
    } catch (InterruptedException | ExecutionException e) {
      return new Lines().exception(e).toString();
    } finally {
      threads.shutdownNow();
    }
  }

  private static void call(Map<String, String> q, Lines out)
      throws IOException, InterruptedException, ExecutionException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(q.get("url")));
    if (q.containsKey("timeout")) {
      request.timeout(Duration.ofMillis(Long.parseLong(q.get("timeout"))));
    }
    HttpClient client = CLIENT;
    if (q.containsKey("connectTimeout")) {
      client =
          HttpClient.newBuilder()
              .connectTimeout(Duration.ofMillis(Long.parseLong(q.get("connectTimeout"))))
              .build();
    }
    String body = q.getOrDefault("body", "string");
    HttpResponse<?> response =
        "async".equals(q.get("api"))
            ? client.sendAsync(request.build(), handler(body)).get()
            : client.send(request.build(), handler(body));
    out.put("status", response.statusCode())
        .put("body", text(response.body()))
        .put("contentType", response.headers().firstValue("Content-Type").orElse(""));
  }

  private static BodyHandler<?> handler(String body) {
    switch (body) {
      case "bytes":
        return BodyHandlers.ofByteArray();
      case "stream":
        return BodyHandlers.ofInputStream();
      case "lines":
        return BodyHandlers.ofLines();
      default:
        return BodyHandlers.ofString();
    }
  }

  /** The body as text; a stream is read to its end and closed, as an application would. */
  @SuppressWarnings("unchecked")
  private static String text(Object body) throws IOException {
    if (body instanceof byte[]) {
      return new String((byte[]) body, StandardCharsets.UTF_8);
    }
    if (body instanceof InputStream) {
      try (InputStream in = (InputStream) body) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }
    if (body instanceof Stream) {
      try (Stream<String> lines = (Stream<String>) body) {
        return lines.collect(Collectors.joining("\n"));
      }
    }
    return String.valueOf(body);
  }
}
