package io.levee.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.testkit.RedisServer;
import io.levee.testkit.RespConnection;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The Redis servers of the cluster tests without the agent: the shared one and one of a test's own.
 */
class RedisFixtureIT {
  @Test
  void sharedServerAnswers() throws Exception {
    Redis.require();
    URI url = URI.create(Redis.url());
    try (RespConnection c =
        RespConnection.open(url.getHost(), url.getPort(), Duration.ofSeconds(10))) {
      assertThat(c.call("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void ownServerStartsAndRestartsOnItsPort() throws Exception {
    try (RedisServer redis = Redis.ownServer().start()) {
      int port = redis.port();
      redis.restart();
      assertThat(redis.port()).isEqualTo(port);
      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }
}
