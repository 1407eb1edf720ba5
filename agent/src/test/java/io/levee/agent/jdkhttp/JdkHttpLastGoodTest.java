package io.levee.agent.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the JDK client hands the last-good keeper: the body of a 2xx {@code GET} that its handler
 * read whole ({@code ofString}, {@code ofByteArray}), once the call completed; nothing of a
 * streamed body, an error status or another method.
 */
class JdkHttpLastGoodTest {
  private static TestServer server;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private final Keeping dispatcher = new Keeping();

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new JdkHttpIntegration());
    server = new TestServer();
  }

  @AfterAll
  static void restore() {
    TestAgent.uninstall(new JdkHttpIntegration());
    server.close();
  }

  @BeforeEach
  void installDispatcher() {
    Levee.install(dispatcher);
  }

  @AfterEach
  void removeDispatcher() {
    Levee.install(null);
    assertThat(dispatcher.errors).isEmpty();
  }

  @Test
  void keepsTheBodyOfAGoodGetReadAsAString() throws Exception {
    CLIENT.send(get(server.url(200)), BodyHandlers.ofString());

    assertThat(awaitKept()).containsExactly("GET " + server.url(200) + " 200: status 200");
    assertThat(dispatcher.headers.get(0)).containsSequence("content-length", "10");
  }

  @Test
  void keepsTheBodyOfAGoodGetReadAsBytesBySendAsync() throws Exception {
    CLIENT.sendAsync(get(server.url(203)), BodyHandlers.ofByteArray()).get(10, TimeUnit.SECONDS);

    assertThat(awaitKept()).containsExactly("GET " + server.url(203) + " 203: status 203");
  }

  @Test
  void keepsNothingOfAStreamedBodyAnErrorOrAPost() throws Exception {
    try (InputStream in = CLIENT.send(get(server.url(200)), BodyHandlers.ofInputStream()).body()) {
      in.readAllBytes();
    }
    CLIENT.send(get(server.url(500)), BodyHandlers.ofString());
    CLIENT.send(
        HttpRequest.newBuilder(URI.create(server.url(200)))
            .POST(HttpRequest.BodyPublishers.ofString("x"))
            .build(),
        BodyHandlers.ofString());

    // The marker: its keeping proves the calls before it completed and kept nothing.
    CLIENT.send(get(server.url(201)), BodyHandlers.ofString());
    assertThat(awaitKept()).containsExactly("GET " + server.url(201) + " 201: status 201");
  }

  private List<String> awaitKept() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (dispatcher.kept.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return dispatcher.kept;
  }

  private static HttpRequest get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).build();
  }

  /** Admits every call to a resource that keeps last good answers, and records what it keeps. */
  private static final class Keeping extends Dispatcher {
    private final Permit permit = new Permit(0, 0, 0) {};
    final List<String> kept = new CopyOnWriteArrayList<>();
    final List<List<String>> headers = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public Object httpEnter(String method, String url) {
      return permit;
    }

    @Override
    public boolean keepsLastGood(Object token) {
      return token == permit;
    }

    @Override
    public LastGoodKeeper lastGood(
        Object token, String method, String url, int status, String[] responseHeaders) {
      headers.add(List.of(responseHeaders));
      return new LastGoodKeeper(1024) {
        @Override
        public void keep(byte[] body, int length) {
          kept.add(
              method
                  + " "
                  + url
                  + " "
                  + status
                  + ": "
                  + new String(body, 0, length, StandardCharsets.UTF_8));
        }
      };
    }

    @Override
    public void internalError(Throwable error) {
      errors.add(error);
    }
  }
}
