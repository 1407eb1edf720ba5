package io.levee.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tests of {@link RedisServer} and {@link RespConnection} on a real redis-server. */
class RedisServerTest {
  // Per test, not per class: a class whose @BeforeAll skips leaves no test in the report.
  @BeforeEach
  void needsRedis() {
    RedisBinary.require();
  }

  @Test
  void answersPingAndCommandsOnALoopbackPort() throws IOException {
    try (RedisServer redis = RedisServer.builder().start()) {
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.command("SET", "levee:a", "1")).isEqualTo("OK");
      assertThat(redis.command("INCRBY", "levee:a", "41")).isEqualTo(42L);
      assertThat(redis.command("GET", "nothing")).isNull();
      assertThat(redis.keys("levee*")).containsExactly("levee:a");
      assertThat(redis.dbSize()).isEqualTo(1);
      assertThat(redis.info("memory")).contains("used_memory:");
      assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + redis.port() + "/0");
      assertThatThrownBy(() -> redis.command("NOSUCHCOMMAND"))
          .isInstanceOf(RespConnection.ErrorReply.class)
          .hasMessageStartingWith("ERR unknown command");
    }
  }

  @Test
  void restartsOnTheSamePortWithNothingKept() throws IOException {
    try (RedisServer redis = RedisServer.builder().start()) {
      int port = redis.port();
      redis.command("SET", "levee:a", "1");

      redis.stop();
      assertThat(redis.isRunning()).isFalse();
      assertThatThrownBy(redis::connect).isInstanceOf(ConnectException.class);

      redis.start();
      assertThat(redis.port()).isEqualTo(port);
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.dbSize()).isZero();

      redis.restart();
      assertThat(redis.port()).isEqualTo(port);
      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void killedServerIsGoneAtOnceAndStartsAgain() throws IOException {
    try (RedisServer redis = RedisServer.builder().start();
        RespConnection open = redis.connect()) {
      redis.kill();

      assertThat(redis.isRunning()).isFalse();
      assertThatThrownBy(() -> open.call("PING")).isInstanceOf(IOException.class);
      redis.start();
      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void asksForThePasswordItWasGiven() throws IOException {
    try (RedisServer redis = RedisServer.builder().password("s3cret").start();
        RespConnection anonymous =
            RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> anonymous.call("PING")).hasMessageStartingWith("NOAUTH");
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.url()).isEqualTo("redis://:s3cret@127.0.0.1:" + redis.port() + "/0");
    }
  }

  @Test
  void knowsOnlyItsAclUser() throws IOException {
    try (RedisServer redis = RedisServer.builder().user("levee", "pw-1").start();
        RespConnection other =
            RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(10))) {
      assertThat(redis.command("ACL", "WHOAMI")).isEqualTo("levee");
      assertThat(redis.url()).isEqualTo("redis://levee:pw-1@127.0.0.1:" + redis.port() + "/0");
      assertThatThrownBy(() -> other.call("PING")).hasMessageStartingWith("NOAUTH");
      assertThatThrownBy(() -> other.call("AUTH", "levee", "wrong"))
          .hasMessageStartingWith("WRONGPASS");
      assertThatThrownBy(() -> other.call("AUTH", "default", ""))
          .hasMessageStartingWith("WRONGPASS");
      assertThat(other.call("AUTH", "levee", "pw-1")).isEqualTo("OK");
    }
  }

  @Test
  void speaksTlsOnlyWithACertificateForLoopback() throws IOException {
    try (RedisServer redis = RedisServer.builder().tls().start()) {
      // connect() checks the host name against the certificate, through the generated truststore.
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.url()).isEqualTo("rediss://127.0.0.1:" + redis.port() + "/0");
      assertThat(redis.tls().orElseThrow().jvmOptions())
          .anySatisfy(o -> assertThat(o).startsWith("-Djavax.net.ssl.trustStore=/"));
      try (RespConnection plain =
          RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(10))) {
        assertThatThrownBy(() -> plain.call("PING")).isInstanceOf(IOException.class);
      }

      redis.restart();
      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }
}
