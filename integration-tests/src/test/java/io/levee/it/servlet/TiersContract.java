package io.levee.it.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Per-key tiers and JWT keys (SPEC §5.3) with real requests: premium, free and internal tenants
 * named by a claim of hand-made bearer tokens (never verified, so any signature does), requests
 * whose token cannot be read all keyed {@code -}, tiers keyed by a header, and monitor mode. Each
 * test uses its own tenants; a free tenant's 2/s refills while a test runs, so its counts are
 * bounded by the burst plus what the elapsed time refilled.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class TiersContract {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: tenants
          match: { servlet: { paths: ["/tenants/**"] } }
          rate-limit:
            rate: 2/s
            burst: 2
            per: "jwt:tenant"
            overrides:
              - { keys: ["premium-*"], rate: 50/s, burst: 50 }
              - { keys: [internal], rate: unlimited }
        - name: guests
          match: { servlet: { paths: ["/guests/**"] } }
          rate-limit:
            rate: 50/s
            per: "jwt:tenant"
            overrides:
              - { keys: ["-"], rate: 2/s }
        - name: by-header
          match: { servlet: { paths: ["/by-header/**"] } }
          rate-limit:
            rate: 2/s
            per: header:X-Tenant
            overrides:
              - { keys: ["gold-*"], rate: 50/s, burst: 50 }
      """;

  private ForkedApp app;
  private AppClient client;

  /** The application's main class (one container). */
  protected abstract Class<?> application();

  protected abstract int jdk();

  private String name() {
    return "tiers-" + application().getSimpleName() + "-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    Path rules = RulesFile.write(name(), RULES);
    app = ForkedApp.of(application()).jdk(Jdk.require(jdk())).rules(rules).name(name()).start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** A compact token whose payload is {@code json}, signed by nobody. */
  static String token(String json) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString(
            "{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(json.getBytes(StandardCharsets.UTF_8))
        + ".bm90LWEtcmVhbC1zaWduYXR1cmU";
  }

  static String[] bearer(String tenant) {
    return new String[] {
      "Authorization", "Bearer " + token("{\"sub\":\"u-1\",\"tenant\":\"" + tenant + "\"}")
    };
  }

  @Test
  void aPremiumTenantsBurstPassesWhileAFreeTenantGetsItsOwnBurst() {
    List<HttpResponse<String>> premium =
        client.concurrently(20, "/tenants/a", bearer("premium-acme"));
    assertThat(premium).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));

    long start = System.nanoTime();
    List<HttpResponse<String>> free = client.concurrently(20, "/tenants/a", bearer("free-globex"));
    long admitted = count(free, 200);
    assertThat(admitted).isBetween(2L, refilledBound(start));
    assertThat(count(free, 429)).isEqualTo(20 - admitted);
    assertBlockedAnswers(free, "tenants");

    // the premium tenant was not touched by the free one
    assertThat(client.concurrently(20, "/tenants/a", bearer("premium-acme")))
        .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
  }

  @Test
  void anInternalTenantIsNeverBlocked() {
    for (int round = 0; round < 4; round++) {
      assertThat(client.concurrently(50, "/tenants/a", bearer("internal")))
          .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
    }
  }

  @Test
  void everyRequestWithoutAReadableClaimSharesTheKeyNone() {
    List<String[]> unreadable = unreadableTokens();
    List<HttpResponse<String>> answers = new ArrayList<>();
    long start = System.nanoTime();
    for (int round = 0; round < 2; round++) {
      for (String[] headers : unreadable) {
        answers.add(client.get("/tenants/anonymous", headers));
      }
    }
    // one bucket for all of them: a bucket each would admit 2 of each kind, 2 x 12 in all
    assertThat(count(answers, 200)).isBetween(2L, refilledBound(start));
    assertThat(count(answers, 200) + count(answers, 429)).isEqualTo(answers.size());
    assertBlockedAnswers(answers, "tenants");
  }

  @Test
  void anOverrideCanNameTheKeyNone() {
    assertThat(client.concurrently(20, "/guests/a", bearer("acme")))
        .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
    long start = System.nanoTime();
    List<HttpResponse<String>> guests = new ArrayList<>();
    for (String[] headers : unreadableTokens()) {
      guests.add(client.get("/guests/a", headers));
    }
    assertThat(count(guests, 200)).isBetween(2L, refilledBound(start));
    assertBlockedAnswers(guests, "guests");
  }

  @Test
  void tiersApplyToAHeaderKeyToo() {
    assertThat(client.concurrently(20, "/by-header/a", "X-Tenant", "gold-7"))
        .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
    long start = System.nanoTime();
    List<HttpResponse<String>> bronze =
        client.concurrently(20, "/by-header/a", "X-Tenant", "bronze-7");
    assertThat(count(bronze, 200)).isBetween(2L, refilledBound(start));
    assertBlockedAnswers(bronze, "by-header");
  }

  @Test
  void monitorModeBlocksNobodyAndCountsOnlyTheFreeTenant() throws Exception {
    int status = StatusRows.freePort();
    String rules = RULES.replace("version: 1\n", "version: 1\nsettings: { mode: monitor }\n");
    try (ForkedApp monitored =
        ForkedApp.of(application())
            .jdk(Jdk.require(jdk()))
            .agent(
                "rules="
                    + RulesFile.write(name() + "-monitor", rules).toAbsolutePath()
                    + ",http=127.0.0.1:"
                    + status)
            .name(name() + "-monitor")
            .start()) {
      AppClient c = new AppClient(monitored);
      List<HttpResponse<String>> all = new ArrayList<>();
      all.addAll(c.concurrently(40, "/tenants/a", bearer("premium-acme")));
      all.addAll(c.concurrently(100, "/tenants/a", bearer("internal")));
      StatusRows.Row tenants = StatusRows.get(status).get("tenants");
      assertThat(tenants.mode()).isEqualTo("monitor");
      assertThat(tenants.wouldBlock()).isEmpty();

      long start = System.nanoTime();
      List<HttpResponse<String>> free = c.concurrently(20, "/tenants/a", bearer("free-globex"));
      all.addAll(free);
      assertThat(all).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      tenants = StatusRows.get(status).get("tenants");
      long wouldBlock = tenants.wouldBlock().getOrDefault("rate-limit", 0L);
      assertThat(wouldBlock).isBetween(20 - refilledBound(start), 18L);
      assertThat(tenants.wouldBlock()).containsOnlyKeys("rate-limit");
      assertThat(tenants.blocked()).isEmpty();
      assertThat(tenants.passed()).isEqualTo(160);
    }
  }

  /**
   * Twelve ways to send no readable claim: no header, another scheme, no claim, a claim nested or
   * of another type, empty or over 256 characters, tokens that are not JWTs, a payload that is not
   * JSON, and a 20 KiB token over the 8 KiB cap (whose claim would otherwise be premium).
   */
  private static List<String[]> unreadableTokens() {
    String header = token("{}").substring(0, token("{}").indexOf('.'));
    String notJson =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("hello, world".getBytes(StandardCharsets.UTF_8));
    String big = token("{\"tenant\":\"premium-big\",\"pad\":\"" + "x".repeat(20 * 1024) + "\"}");
    assertThat(big.length()).isGreaterThan(20 * 1024);
    List<String[]> list = new ArrayList<>();
    list.add(new String[0]);
    list.add(new String[] {"Authorization", "Basic dXNlcjpwYXNzd29yZA=="});
    list.add(new String[] {"Authorization", "Bearer " + token("{\"sub\":\"u-1\"}")});
    list.add(
        new String[] {"Authorization", "Bearer " + token("{\"org\":{\"tenant\":\"premium-x\"}}")});
    list.add(new String[] {"Authorization", "Bearer " + token("{\"tenant\":true}")});
    list.add(new String[] {"Authorization", "Bearer " + token("{\"tenant\":\"\"}")});
    list.add(
        new String[] {
          "Authorization", "Bearer " + token("{\"tenant\":\"premium-" + "x".repeat(300) + "\"}")
        });
    list.add(new String[] {"Authorization", "Bearer abc"});
    list.add(new String[] {"Authorization", "Bearer a.!!!.c"});
    list.add(new String[] {"Authorization", "Bearer " + header + "." + notJson + ".c2ln"});
    list.add(new String[] {"Authorization", "Bearer " + big});
    list.add(new String[] {"Authorization", "bearer"});
    return list;
  }

  /** The most a 2/s bucket with a burst of 2 admits from {@code startNanos} until now. */
  private static long refilledBound(long startNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    return 2 + (long) Math.ceil(2 * seconds);
  }

  private static long count(List<HttpResponse<String>> answers, int status) {
    return answers.stream().filter(r -> r.statusCode() == status).count();
  }

  /** Every answer is 200 or the configured 429 naming the resource, with a Retry-After. */
  private static void assertBlockedAnswers(List<HttpResponse<String>> answers, String resource) {
    assertThat(answers).allSatisfy(r -> assertThat(r.statusCode()).isIn(200, 429));
    assertThat(answers)
        .filteredOn(r -> r.statusCode() == 429)
        .isNotEmpty()
        .allSatisfy(
            r -> {
              assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
              assertThat(r.body()).contains(resource).contains("rate-limit");
            });
  }
}
