package io.levee.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tests of {@link StallingProxy} in front of a real redis-server. */
class StallingProxyTest {
  private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final String PONG = "+PONG\r\n";

  private static RedisServer redis;

  // Per test, not per class: a class whose @BeforeAll skips leaves no test in the report.
  @BeforeEach
  void startRedis() throws IOException {
    RedisBinary.require();
    if (redis == null) {
      redis = RedisServer.builder().start();
    }
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void forwardsBothWays() throws IOException {
    try (StallingProxy proxy = StallingProxy.to(redis.host(), redis.port());
        RespConnection c =
            RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10))) {
      assertThat(c.call("PING")).isEqualTo("PONG");
      assertThat(c.call("ECHO", "x".repeat(100_000))).isEqualTo("x".repeat(100_000));
      assertThat(proxy.connections()).isEqualTo(1);
    }
  }

  @Test
  void stalledProxyKeepsTheConnectionButMovesNothingUntilReleased() throws IOException {
    try (StallingProxy proxy = StallingProxy.to(redis.host(), redis.port());
        Socket socket = new Socket(proxy.host(), proxy.port())) {
      socket.setSoTimeout(10_000);
      assertThat(ping(socket)).isEqualTo(PONG);

      proxy.stall(true);
      socket.setSoTimeout(300);
      socket.getOutputStream().write(PING);
      assertThatThrownBy(() -> read(socket, PONG.length()))
          .isInstanceOf(SocketTimeoutException.class);
      try (Socket late = new Socket(proxy.host(), proxy.port())) {
        late.setSoTimeout(300);
        assertThatThrownBy(() -> ping(late)).isInstanceOf(SocketTimeoutException.class);
      }

      proxy.stall(false);
      socket.setSoTimeout(10_000);
      assertThat(read(socket, PONG.length())).isEqualTo(PONG);
      assertThat(ping(socket)).isEqualTo(PONG);
    }
  }

  @Test
  void delaysEachChunk() throws IOException {
    Duration delay = Duration.ofMillis(200);
    try (StallingProxy proxy = StallingProxy.to(redis.host(), redis.port());
        RespConnection c =
            RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10))) {
      assertThat(c.call("PING")).isEqualTo("PONG");
      proxy.delay(delay);

      long started = System.nanoTime();
      assertThat(c.call("PING")).isEqualTo("PONG");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(delay);

      proxy.delay(Duration.ZERO);
      assertThat(c.call("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void closeEndsConnectionsAndThreads() throws Exception {
    StallingProxy proxy = StallingProxy.to(redis.host(), redis.port());
    int port = proxy.port();
    Socket socket = new Socket(proxy.host(), port);
    socket.setSoTimeout(10_000);
    assertThat(ping(socket)).isEqualTo(PONG);
    proxy.stall(true);
    socket.getOutputStream().write(PING);

    proxy.close();

    assertThat(socket.getInputStream().read()).isEqualTo(-1);
    socket.close();
    assertThatThrownBy(() -> new Socket(proxy.host(), port).close())
        .isInstanceOf(ConnectException.class);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("stalling-proxy-" + port + "-"));
  }

  private static String ping(Socket socket) throws IOException {
    socket.getOutputStream().write(PING);
    return read(socket, PONG.length());
  }

  private static String read(Socket socket, int length) throws IOException {
    InputStream in = socket.getInputStream();
    byte[] bytes = new byte[length];
    for (int n = 0; n < length; ) {
      int got = in.read(bytes, n, length - n);
      if (got < 0) {
        throw new IOException("closed after " + n + " bytes");
      }
      n += got;
    }
    return new String(bytes, StandardCharsets.US_ASCII);
  }
}
