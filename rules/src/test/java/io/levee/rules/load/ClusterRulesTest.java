package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.ClusterSettings;
import io.levee.rules.model.RedisAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code settings.cluster} (SPEC §5.3): the Redis address in its forms, {@code ${NAME}} references,
 * the defaults and bounds, and a password that no error message and no printed address shows.
 */
class ClusterRulesTest {
  private static final String PASSWORD = "s3cret-Pw";

  private final Map<String, String> env = new HashMap<>();
  private ClusterReader.Environment saved;

  @BeforeEach
  void useAnEnvironmentOfOurOwn() {
    saved = ClusterReader.environment;
    ClusterReader.environment = env::get;
  }

  @AfterEach
  void restoreTheEnvironment() {
    ClusterReader.environment = saved;
  }

  private static String cluster(String fields) {
    return file("settings:\n  cluster: { " + fields + " }\n");
  }

  private static ClusterSettings settings(String fields) {
    return load(cluster(fields)).settings.cluster;
  }

  private static RedisAddress redis(String address) {
    return settings("redis: \"" + address + "\"").redis;
  }

  private static List<String> redisErrors(String address) {
    return errors(cluster("redis: \"" + address + "\""));
  }

  @Test
  void hasNoClusterWithoutClusterSettings() {
    assertThat(load(file("settings: { mode: monitor }\n")).settings.cluster).isNull();
    assertThat(load(file("")).settings.cluster).isNull();
  }

  @Test
  void readsAPlainAddressWithItsDefaults() {
    ClusterSettings c = settings("redis: redis://127.0.0.1:6379/0");
    assertThat(c.redis).isEqualTo(new RedisAddress(false, null, null, "127.0.0.1", 6379, 0));
    assertThat(c.syncNanos).isEqualTo(100_000_000L);
    assertThat(c.onFailure).isEqualTo(ClusterSettings.OnFailure.LOCAL);
    assertThat(redis("redis://cache"))
        .isEqualTo(new RedisAddress(false, null, null, "cache", 6379, 0));
    assertThat(redis("redis://cache/")).isEqualTo(redis("redis://cache"));
    assertThat(redis("redis://cache:7000")).extracting(a -> a.port).isEqualTo(7000);
  }

  @Test
  void readsTlsUserPasswordPortAndDatabase() {
    assertThat(redis("rediss://levee:" + PASSWORD + "@redis.example.com:6380/2"))
        .isEqualTo(new RedisAddress(true, "levee", PASSWORD, "redis.example.com", 6380, 2));
    assertThat(redis("redis://:" + PASSWORD + "@cache"))
        .isEqualTo(new RedisAddress(false, null, PASSWORD, "cache", 6379, 0));
    // without a colon the user part is the password, as redis-cli reads it
    assertThat(redis("redis://" + PASSWORD + "@cache"))
        .isEqualTo(new RedisAddress(false, null, PASSWORD, "cache", 6379, 0));
    assertThat(redis("redis://levee:@cache"))
        .isEqualTo(new RedisAddress(false, "levee", null, "cache", 6379, 0));
    // the last @ ends the password, which may hold one
    assertThat(redis("redis://levee:p@ss:w/rd@cache:1/15").password).isEqualTo("p@ss:w/rd");
  }

  @Test
  void readsAnIpv6HostInBrackets() {
    assertThat(redis("redis://[::1]:7000/1"))
        .isEqualTo(new RedisAddress(false, null, null, "::1", 7000, 1));
    assertThat(redis("rediss://[fe80::1]"))
        .isEqualTo(new RedisAddress(true, null, null, "fe80::1", 6379, 0));
    assertThat(redis("redis://[::1]:7000/1").toString()).isEqualTo("redis://[::1]:7000/1");
  }

  @Test
  void rejectsAnAddressItCannotUse() {
    assertThat(redisErrors("http://cache:6379"))
        .containsExactly(
            "settings.cluster.redis: a Redis address starts with redis:// (or rediss:// for"
                + " TLS), got 'http://'");
    assertThat(redisErrors("redis+sentinel://cache"))
        .singleElement()
        .asString()
        .contains("starts with redis://");
    assertThat(redisErrors("redis://cache:0"))
        .containsExactly("settings.cluster.redis: the port is a number from 1 to 65535, got 0");
    assertThat(redisErrors("redis://cache:65536"))
        .containsExactly("settings.cluster.redis: the port is a number from 1 to 65535, got 65536");
    assertThat(redisErrors("redis://cache:port"))
        .containsExactly("settings.cluster.redis: the port is a number from 1 to 65535");
    assertThat(redisErrors("redis://cache/one"))
        .containsExactly(
            "settings.cluster.redis: the database after the last / is a number like 0");
    assertThat(redisErrors("redis://cache/123456"))
        .containsExactly(
            "settings.cluster.redis: the database after the last / is a number like 0, got"
                + " 123456");
    assertThat(redisErrors("redis://:6379"))
        .containsExactly(
            "settings.cluster.redis: the address names no host, as in redis://127.0.0.1:6379/0");
    assertThat(redisErrors("redis://[::1:6379"))
        .containsExactly(
            "settings.cluster.redis: an IPv6 host needs its closing ], as in"
                + " redis://[::1]:6379");
    assertThat(redisErrors("redis://[::1]6379"))
        .containsExactly("settings.cluster.redis: expected :PORT after the IPv6 host, got 6379");
  }

  @Test
  void resolvesReferencesToTheEnvironment() {
    env.put("LEVEE_REDIS_PASSWORD", PASSWORD);
    env.put("REDIS_HOST", "redis.internal");
    assertThat(redis("rediss://levee:${LEVEE_REDIS_PASSWORD}@${REDIS_HOST}:6380/0"))
        .isEqualTo(new RedisAddress(true, "levee", PASSWORD, "redis.internal", 6380, 0));
    // a value is taken as it is, never read again for references
    env.put("TRICKY", "${REDIS_HOST}$1\\");
    assertThat(redis("redis://u:${TRICKY}@cache").password).isEqualTo("${REDIS_HOST}$1\\");
    // a generated password is the password: its % and @ are not escapes or the end of it
    env.put("GENERATED", "ab%2Fcd@é:+/");
    assertThat(redis("redis://u:${GENERATED}@cache").password).isEqualTo("ab%2Fcd@é:+/");
    assertThat(redis("redis://${GENERATED}@cache").password).isEqualTo("ab%2Fcd@é:+/");
    // while one written in the file is decoded, and a whole address from the environment too
    assertThat(redis("redis://u:ab%2Fcd@cache").password).isEqualTo("ab/cd");
    env.put("REDIS_URL", "redis://u:ab%2Fcd@cache:7000");
    assertThat(redis("${REDIS_URL}"))
        .isEqualTo(new RedisAddress(false, "u", "ab/cd", "cache", 7000, 0));
  }

  @Test
  void pointsAtAReferenceToAnUnsetVariable() {
    String yaml = cluster("redis: \"redis://levee:${LEVEE_REDIS_PASSWORD}@cache:6379/0\"");
    List<RuleError> errors = RulesLoader.parse("rules.yaml", yaml).errors();
    assertThat(errors).hasSize(1);
    RuleError e = errors.get(0);
    assertThat(e.path() + ": " + e.message())
        .isEqualTo(
            "settings.cluster.redis: the environment variable LEVEE_REDIS_PASSWORD is not set in"
                + " this JVM");
    String line = yaml.split("\n")[2];
    assertThat(e.line()).isEqualTo(3);
    assertThat(e.column()).isEqualTo(line.indexOf("${") + 1);
  }

  @Test
  void neverShowsThePasswordInAnErrorOrAnAddress() {
    env.put("LEVEE_REDIS_PASSWORD", PASSWORD);
    String[] broken = {
      "http://levee:" + PASSWORD + "@cache:6379/0",
      "ftp://:" + PASSWORD + "@cache",
      "redis://levee:" + PASSWORD + "@cache:99999/0",
      "redis://levee:" + PASSWORD + "@cache:port",
      "redis://levee:" + PASSWORD + "@cache/x",
      "redis://levee:" + PASSWORD + "@",
      "redis://levee:" + PASSWORD + "@[::1",
      "redis://levee:" + PASSWORD + "@[::1]x",
      "rediss://levee:${LEVEE_REDIS_PASSWORD}@cache:0",
      "http://levee:${LEVEE_REDIS_PASSWORD}@cache",
      "rediss://levee:${LEVEE_REDIS_PASSWORD}@cache/${UNSET}",
    };
    for (String address : broken) {
      assertThat(String.join("\n", redisErrors(address))).as(address).doesNotContain(PASSWORD);
    }
    RedisAddress withUser = redis("rediss://levee:${LEVEE_REDIS_PASSWORD}@cache:6380/1");
    assertThat(withUser.password).isEqualTo(PASSWORD);
    assertThat(withUser.toString()).isEqualTo("rediss://levee@cache:6380/1");
    RedisAddress withoutUser = redis("redis://:" + PASSWORD + "@cache");
    assertThat(withoutUser.toString()).isEqualTo("redis://default@cache:6379/0");
    assertThat(redis("redis://${LEVEE_REDIS_PASSWORD}@cache").toString())
        .isEqualTo("redis://default@cache:6379/0");
    assertThat(settings("redis: \"redis://:" + PASSWORD + "@cache\", name: shop").toString())
        .isEqualTo("shop on redis://default@cache:6379/0");
  }

  @Test
  void namesTheClusterAfterTheRulesFileUnlessNamed() {
    String yaml = cluster("redis: redis://cache");
    assertThat(RulesLoader.parse("/etc/levee/shop.yaml", yaml).rules().settings.cluster.name)
        .isEqualTo("shop");
    assertThat(ClusterReader.defaultName("C:\\levee\\my rules.v2.yml")).isEqualTo("my-rules.v2");
    assertThat(ClusterReader.defaultName("rules")).isEqualTo("rules");
    assertThat(ClusterReader.defaultName(null)).isEqualTo("levee");
    assertThat(ClusterReader.defaultName("/etc/levee/" + "x".repeat(80) + ".yaml")).hasSize(64);
    assertThat(settings("redis: redis://cache, name: checkout-eu.1").name)
        .isEqualTo("checkout-eu.1");
    assertThat(errors(cluster("redis: redis://cache, name: \"checkout eu\"")))
        .containsExactly(
            "settings.cluster.name: expected a name of letters, digits, '.', '_' or '-', at most"
                + " 64, got 'checkout eu'");
  }

  @Test
  void settlesEveryTwentyMillisecondsToTenSeconds() {
    assertThat(settings("redis: redis://cache, sync: 20ms").syncNanos).isEqualTo(20_000_000L);
    assertThat(settings("redis: redis://cache, sync: 10s").syncNanos).isEqualTo(10_000_000_000L);
    assertThat(errors(cluster("redis: redis://cache, sync: 19ms")))
        .containsExactly("settings.cluster.sync: must be from 20ms to 10s, got 19ms");
    assertThat(errors(cluster("redis: redis://cache, sync: 11s")))
        .containsExactly("settings.cluster.sync: must be from 20ms to 10s, got 11s");
    assertThat(errors(cluster("redis: redis://cache, sync: often")))
        .containsExactly(
            "settings.cluster.sync: expected a duration from 20ms to 10s, like 100ms, got 'often'");
  }

  @Test
  void readsOnFailureAsLocalOrOpen() {
    assertThat(settings("redis: redis://cache, on-failure: local").onFailure)
        .isEqualTo(ClusterSettings.OnFailure.LOCAL);
    assertThat(settings("redis: redis://cache, on-failure: open").onFailure)
        .isEqualTo(ClusterSettings.OnFailure.OPEN);
    assertThat(errors(cluster("redis: redis://cache, on-failure: closed")))
        .containsExactly("settings.cluster.on-failure: expected local or open, got 'closed'");
  }

  @Test
  void requiresRedisAndKnowsOnlyItsOwnKeys() {
    assertThat(errors(cluster("name: shop")))
        .containsExactly(
            "settings.cluster.redis: `redis` is required: where the shared budgets live, like"
                + " redis://127.0.0.1:6379/0");
    assertThat(errors(cluster("redis: redis://cache, on-failur: open")))
        .containsExactly(
            "settings.cluster.on-failur: unknown key `on-failur`; did you mean `on-failure`?");
    assertThat(errors(file("settings:\n  cluster: redis://cache\n")))
        .containsExactly(
            "settings.cluster: expected a mapping with redis, name, sync and on-failure, got"
                + " 'redis://cache'");
  }
}
