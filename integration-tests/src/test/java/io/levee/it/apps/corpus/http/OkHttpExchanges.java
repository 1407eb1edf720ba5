package io.levee.it.apps.corpus.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * OkHttp, one client for every exchange, through {@code execute} and, every other exchange, {@code
 * enqueue} waited for. Compiled against 4.12 and run on every line (3.14, 4.12, 5.x): only API all
 * of them have.
 */
public final class OkHttpExchanges extends ClientExchanges {
  private final OkHttpClient client =
      new OkHttpClient.Builder().connectTimeout(10, TimeUnit.SECONDS).build();
  private int sent;

  public static void main(String[] args) throws Exception {
    new OkHttpExchanges().run();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws Exception {
    RequestBody requestBody =
        body == null ? null : RequestBody.create(MediaType.parse("text/plain"), body);
    Request request = new Request.Builder().url(url).method(method, requestBody).build();
    Call call = client.newCall(request);
    if (sent++ % 2 == 0) {
      try (Response response = call.execute()) {
        return answer(response);
      }
    }
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    call.enqueue(
        new Callback() {
          @Override
          public void onFailure(Call c, java.io.IOException e) {
            answer.completeExceptionally(e);
          }

          @Override
          public void onResponse(Call c, Response response) {
            try (Response r = response) {
              answer.complete(answer(r));
            } catch (Exception e) {
              answer.completeExceptionally(e);
            }
          }
        });
    try {
      return answer.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw (Exception) e.getCause();
    }
  }

  private static Answer answer(Response response) throws java.io.IOException {
    return new Answer(response.code(), response.headers().toMultimap(), response.body().bytes());
  }

  @Override
  protected void finish() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }
}
