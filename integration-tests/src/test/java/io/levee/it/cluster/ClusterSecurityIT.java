package io.levee.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.lifecycle.Cli;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Redis;
import io.levee.testkit.RedisServer;
import org.junit.jupiter.api.Test;

/**
 * A cluster quota on a Redis that asks for TLS and an ACL user, the password given to the rules
 * file through an environment variable ({@code ${NAME}}): the instance settles (Redis counts it and
 * holds its keys), and neither its log, {@code /status}, {@code /metrics} nor the {@code status}
 * command shows the password. A certificate that a trusted authority signed for another host is
 * refused: the password is never sent to it.
 */
class ClusterSecurityIT {
  private static final String PASSWORD = "s3cret-Pw_for-levee";

  @Test
  void settlesOverTlsAsAnAclUserWithoutShowingThePassword() throws Exception {
    try (RedisServer redis = Redis.ownServer().user("levee", PASSWORD).tls().start();
        LocalHttpServer partner = LocalHttpServer.start()) {
      try (Fleet fleet = start("cluster-secure", redis, partner)) {
        fleet.rates(80);
        assertThat(fleet.awaitStatus(0, "\"connected\":true", 10_000))
            .as("settled over TLS as user levee; %s", fleet.apps.get(0).leveeLines())
            .isNotNegative();
        assertThat(redis.keys("levee:{secure:partner-quota}*")).hasSize(2);
        String status = fleet.status(0);
        assertThat(status)
            .contains("\"redis\":\"rediss://levee@127.0.0.1:" + redis.port() + "/0\"");
        String table = Cli.run(Jdk.current(), "status", fleet.apps.get(0).pid()).out();
        assertThat(table).contains("cluster: secure on rediss://levee@127.0.0.1:");
        for (String shown :
            new String[] {
              status, fleet.metrics(0), String.join("\n", fleet.apps.get(0).leveeLines()), table
            }) {
          assertThat(shown).doesNotContain(PASSWORD);
        }
      }
    }
  }

  @Test
  void refusesACertificateThatDoesNotNameTheHost() throws Exception {
    try (RedisServer redis =
            Redis.ownServer().user("levee", PASSWORD).tls("DNS:elsewhere.invalid").start();
        LocalHttpServer partner = LocalHttpServer.start()) {
      try (Fleet fleet = start("cluster-wrong-host", redis, partner)) {
        fleet.rates(80);
        assertThat(fleet.awaitStatus(0, "\"connected\":false", 10_000))
            .as("a certificate trusted but for another host; %s", fleet.apps.get(0).leveeLines())
            .isNotNegative();
        // the state is set just before the line is written: wait for the line too
        for (int i = 0; i < 100 && fleet.logLines(0, "cannot be reached").isEmpty(); i++) {
          Thread.sleep(50);
        }
        assertThat(fleet.logLines(0, "cannot be reached"))
            .singleElement()
            .asString()
            .contains("127.0.0.1")
            .doesNotContain(PASSWORD);
        assertThat(redis.keys("levee:*")).as("no AUTH reached it, nothing settled").isEmpty();
      }
    }
  }

  /** One instance whose cluster is the TLS Redis as user levee, its password from the env. */
  private static Fleet start(String name, RedisServer redis, LocalHttpServer partner)
      throws Exception {
    String url = "rediss://levee:${LEVEE_IT_REDIS_PASSWORD}@127.0.0.1:" + redis.port() + "/0";
    String rules =
        "version: 1\n"
            + "settings:\n"
            + "  cluster: { redis: \""
            + url
            + "\", name: secure }\n"
            + "resources:\n"
            + "  - name: partner-quota\n"
            + "    match: { http: { urls: [\"http://127.0.0.1:*/quota\"] } }\n"
            + "    rate-limit: { rate: 50/s, scope: cluster }\n";
    return Fleet.start(
        name,
        1,
        rules,
        partner.url("/quota"),
        app -> {
          redis.tls().orElseThrow().jvmOptions().forEach(app::jvmOption);
          return app.env("LEVEE_IT_REDIS_PASSWORD", PASSWORD);
        });
  }
}
