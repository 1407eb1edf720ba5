package io.levee.agent.okhttp;

import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.levee.agent.instrument.CallsLoader;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OkHttp calls on each line of OkHttp, in this JVM: OkHttp 3.14 (okio 1.x) and 5.x (okio 3.16,
 * Kotlin 2) loaded from {@code client-lines/} in loaders of their own, 4.12 from the test class
 * path; each woven at load, with its own calls defined beside it. What differs between the lines is
 * okio and the Kotlin-made API, so this runs every member the calls use: the decision, the levee:
 * failure on execute and enqueue, the fallback, the call timeout and the last-good tee.
 */
class OkHttpLinesTest {
  private static HttpServer server;
  private final List<String> kept = new CopyOnWriteArrayList<>();
  private volatile Object answer;

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new OkHttpIntegration());
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = "line ok".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @AfterEach
  void removeDispatcher() {
    Levee.install(null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"okhttp3", "okhttp4", "okhttp5"})
  void everyCallOfTheIntegrationWorksOnTheLine(String line) throws Exception {
    Function<String, String> probe = probe(line);
    Levee.install(keepingDispatcher());
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/x";

    answer = permit(0, 0);
    assertThat(probe.apply("execute " + url)).isEqualTo("200 line ok");
    assertThat(kept).containsExactly("line ok");

    answer = RecordingDispatcher.blocked();
    assertThat(probe.apply("execute " + url)).startsWith("java.io.IOException levee:");
    assertThat(probe.apply("enqueue " + url))
        .startsWith("java.io.IOException levee:")
        .contains(" on OkHttp ");

    answer = RecordingDispatcher.fallback(503, "degraded", "Content-Type", "text/plain");
    assertThat(probe.apply("execute " + url)).isEqualTo("503 degraded");
    assertThat(probe.apply("enqueue " + url)).startsWith("503 degraded on OkHttp ");

    try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      answer = permit(0, 300);
      long start = System.nanoTime();
      assertThat(probe.apply("execute http://127.0.0.1:" + stalled.getLocalPort() + "/"))
          .isEqualTo("java.io.InterruptedIOException timeout");
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(250L, 3_000L);
    }
    assertThat(kept).hasSize(1);
  }

  /** Answers {@link #answer}, and keeps the body of every good GET it is offered. */
  private Dispatcher keepingDispatcher() {
    return new Dispatcher() {
      @Override
      public Object httpEnter(String method, String url) {
        return answer;
      }

      @Override
      public boolean keepsLastGood(Object token) {
        return !(token instanceof Blocked);
      }

      @Override
      public LastGoodKeeper lastGood(
          Object token, String method, String url, int status, String[] headers) {
        return new LastGoodKeeper(1024) {
          @Override
          public void keep(byte[] body, int length) {
            kept.add(new String(body, 0, length, StandardCharsets.UTF_8));
          }
        };
      }

      @Override
      public void internalError(Throwable error) {
        kept.add("internal error " + error);
      }
    };
  }

  /** A {@link LineProbe} beside the line's OkHttp. */
  @SuppressWarnings("unchecked")
  private static Function<String, String> probe(String line) throws Exception {
    ClassLoader okhttp =
        line.equals("okhttp4") ? OkHttpLinesTest.class.getClassLoader() : loader(line);
    String name = LineProbe.class.getName();
    Class<?> probe = CallsLoader.define(okhttp, name, CallsLoader.classFile(name));
    assertThat(probe.getClassLoader().loadClass("okhttp3.OkHttpClient").getClassLoader())
        .isSameAs(okhttp);
    return (Function<String, String>) probe.getDeclaredConstructor().newInstance();
  }

  /** The jars {@code client-lines/<line>} resolved, over the platform loader only. */
  private static ClassLoader loader(String line) throws IOException {
    Path file = Paths.get("..", "client-lines", line, "target", "classpath.txt");
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          file.toAbsolutePath().normalize()
              + " is missing: build client-lines first (mvn install)");
    }
    String[] jars = Files.readString(file).trim().split(File.pathSeparator);
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) {
      urls[i] = url(jars[i]);
    }
    return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
  }

  private static URL url(String jar) throws MalformedURLException {
    return Paths.get(jar).toUri().toURL();
  }
}
