package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.Redis;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmProcess;
import io.levee.testkit.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent jar's own Redis client, Jedis relocated under {@code io.levee.shaded} with its pool,
 * JSON libraries and slf4j, works from the jar alone and prints nothing: a relocated slf4j 1.7
 * without its (relocated) binding would tell the application's stderr it found none. A one-file
 * program, compiled against the jar by the source launcher, talks to a real redis-server through
 * the relocated classes, plain and with TLS and an ACL user as in {@code rediss://user:pw@…}.
 */
class ShadedRedisClientIT {
  private static final String PROBE =
      """
      import io.levee.shaded.org.slf4j.LoggerFactory;
      import io.levee.shaded.redis.clients.jedis.JedisPooled;
      import java.net.URI;

      public class ShadedJedisProbe {
        public static void main(String[] args) {
          try (JedisPooled jedis = new JedisPooled(URI.create(args[0]))) {
            System.out.println(jedis.ping());
            jedis.set("levee:probe", "42");
            System.out.println(jedis.get("levee:probe"));
          }
          System.out.println(LoggerFactory.getILoggerFactory().getClass().getName());
        }
      }
      """;

  @Test
  void pingsRedisThroughTheRelocatedClientWithoutAWordOnStderr() throws Exception {
    try (RedisServer redis = Redis.ownServer().start()) {
      runsQuietly(redis, "plain", List.of());
      assertThat(redis.command("GET", "levee:probe")).isEqualTo("42");
    }
  }

  @Test
  void reachesATlsServerAsAnAclUserWithTheJvmsTruststore() throws Exception {
    try (RedisServer redis = Redis.ownServer().user("levee", "pw-1").tls().start()) {
      assertThat(redis.url()).startsWith("rediss://levee:pw-1@127.0.0.1:");
      runsQuietly(redis, "tls", redis.tls().orElseThrow().jvmOptions());
      assertThat(redis.command("GET", "levee:probe")).isEqualTo("42");
    }
  }

  private static void runsQuietly(RedisServer redis, String name, List<String> jvmOptions)
      throws Exception {
    Path dir = Files.createDirectories(TestPaths.workDir().resolve("shaded-jedis-" + name));
    Path probe = Files.writeString(dir.resolve("ShadedJedisProbe.java"), PROBE);
    Path out = dir.resolve("probe.stdout.log");
    Path err = dir.resolve("probe.stderr.log");
    JvmProcess jvm =
        JvmProcess.java()
            .options(jvmOptions)
            .options("-cp", TestPaths.agentJar().toString())
            .sourceFile(probe.toString())
            .args(redis.url())
            .output(out, err)
            .noInput()
            .killOnExit()
            .start();
    try {
      assertThat(jvm.waitFor(Duration.ofSeconds(120))).as("the probe ends").isTrue();
    } finally {
      jvm.kill();
    }

    assertThat(jvm.errors()).isEmpty();
    assertThat(jvm.exitValue()).isZero();
    assertThat(jvm.output().lines())
        .containsExactly("PONG", "42", "io.levee.shaded.org.slf4j.helpers.NOPLoggerFactory");
  }
}
