package io.levee.agent.okhttp;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An application's OkHttp calls, defined beside one line of OkHttp ({@link OkHttpLinesTest}):
 * compiled against 4.12 but using only what 3.14 and 5.x have too. {@code apply("execute URL")} or
 * {@code apply("enqueue URL")} makes one call and answers {@code "<status> <body>"} or {@code
 * "<exception class> <message>"}, with {@code " on <thread>"} for enqueue. One class, as its loader
 * defines no other: it is its own callback.
 */
public final class LineProbe implements Function<String, String>, Callback {
  private final OkHttpClient client = new OkHttpClient();
  private volatile CompletableFuture<String> answer;

  @Override
  public String apply(String command) {
    String[] parts = command.split(" ");
    Call call = client.newCall(new Request.Builder().url(parts[1]).build());
    if (parts[0].equals("enqueue")) {
      answer = new CompletableFuture<>();
      call.enqueue(this);
      try {
        return answer.get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        return e.toString();
      }
    }
    try (Response response = call.execute()) {
      return describe(response);
    } catch (IOException e) {
      return e.getClass().getName() + " " + e.getMessage();
    }
  }

  @Override
  public void onFailure(Call call, IOException e) {
    answer.complete(
        e.getClass().getName() + " " + e.getMessage() + " on " + Thread.currentThread().getName());
  }

  @Override
  public void onResponse(Call call, Response response) throws IOException {
    try (Response r = response) {
      answer.complete(describe(r) + " on " + Thread.currentThread().getName());
    }
  }

  private static String describe(Response response) throws IOException {
    return response.code() + " " + response.body().string();
  }
}
