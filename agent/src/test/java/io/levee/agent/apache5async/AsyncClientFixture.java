package io.levee.agent.apache5async;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Levee;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A woven HttpClient 5 async client per test, a local server that answers {@code /status/N} and one
 * that accepts connections and never answers, and a recording dispatcher.
 */
abstract class AsyncClientFixture {
  static final TimeUnit SECONDS = TimeUnit.SECONDS;

  static TestServer server;
  static ServerSocket silent;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  final RecordingDispatcher dispatcher = new RecordingDispatcher();
  PoolingAsyncClientConnectionManager pool;
  CloseableHttpAsyncClient client;

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new ApacheAsyncIntegration());
    server = new TestServer();
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterAll
  static void restore() throws IOException {
    server.close();
    silent.close();
  }

  @BeforeEach
  void start() {
    Levee.install(dispatcher);
    pool = PoolingAsyncClientConnectionManagerBuilder.create().build();
    client = HttpAsyncClients.custom().setConnectionManager(pool).build();
    client.start();
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  accepted.add(silent.accept());
                }
              } catch (IOException closed) {
                // The test is over.
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterEach
  void stop() throws IOException {
    client.close(CloseMode.GRACEFUL);
    Levee.install(null);
    for (Socket s : accepted) {
      s.close();
    }
    assertThat(TestAgent.errors()).isEmpty();
    assertThat(dispatcher.internalErrors).isEmpty();
  }

  /** The client gives a connection back just after it completes the future. */
  static void assertNoLease(PoolingAsyncClientConnectionManager p) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (p.getTotalStats().getLeased() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(p.getTotalStats().getLeased()).as("leased connections").isZero();
  }

  static SimpleHttpRequest get(String url) {
    return SimpleRequestBuilder.get(url).build();
  }

  static String silentUrl() {
    return "http://127.0.0.1:" + silent.getLocalPort() + "/hang";
  }

  /** Admits every call with one permit whose resource keeps last good answers. */
}
