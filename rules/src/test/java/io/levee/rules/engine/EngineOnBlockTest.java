package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.model.Defaults;
import org.junit.jupiter.api.Test;

class EngineOnBlockTest {
  private final Fixture f = new Fixture();

  @Test
  void servletDefaultsNameTheResourceAndReason() {
    f.apply(
        "resources:\n  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
            + "    rate-limit: { rate: 1/m, burst: 1 }\n");
    permit(f.get("/shop"));
    Blocked b = blocked(f.get("/shop"));
    assertThat(b.resource).isEqualTo("shop");
    assertThat(b.reason).isEqualTo("rate-limit");
    assertThat(b.status).isEqualTo(429);
    assertThat(b.retryAfterSeconds).isBetween(59, 60); // auto: until the next token, rounded up
    assertThat(b.message).startsWith("levee:").contains("shop").contains("rate-limit");
    assertThat(b.body).contains("shop").contains("rate-limit").doesNotContain("\n\n");
    assertThat(b.body.trim()).doesNotContain("\n");
    assertThat(b.contentType).isEqualTo(Defaults.CONTENT_TYPE);
    assertThat(b.headers).isEmpty();
    assertThat(b.fallback).isFalse();
  }

  @Test
  void servletUsesConfiguredStatusBodyHeadersAndFixedRetryAfter() {
    f.apply(
        "resources:\n  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { status: 503, retry-after: 7s, body: busy, content-type: text/html,"
            + " headers: { X-A: b } }\n");
    permit(f.get("/shop"));
    Blocked b = blocked(f.get("/shop"));
    assertThat(b.status).isEqualTo(503);
    assertThat(b.retryAfterSeconds).isEqualTo(7);
    assertThat(b.body).isEqualTo("busy");
    assertThat(b.contentType).isEqualTo("text/html");
    assertThat(b.headers).containsExactly("X-A", "b");
  }

  @Test
  void retryAfterNoneOmitsTheHeaderAndConcurrencySaysOneSecond() {
    f.apply(
        "resources:\n  - name: a\n    match: { servlet: { paths: [\"/a\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "  - name: b\n    match: { servlet: { paths: [\"/b\"] } }\n"
            + "    concurrency: { max: 1 }\n    on-block: { retry-after: none }\n");
    permit(f.get("/a"));
    permit(f.get("/b"));
    assertThat(blocked(f.get("/a")).retryAfterSeconds).isEqualTo(1);
    assertThat(blocked(f.get("/a")).status).isEqualTo(429);
    assertThat(blocked(f.get("/b")).retryAfterSeconds).isEqualTo(-1);
  }

  @Test
  void httpAnswersWithTheFallbackWhenThereIsOne() {
    f.apply(
        "resources:\n  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { fallback: { status: 503, body: '{\"status\":\"degraded\"}',"
            + " headers: { Content-Type: application/json } } }\n"
            + "  - name: plain\n    match: { http: { urls: [\"http://plain/**\"] } }\n"
            + "    concurrency: { max: 1 }\n");
    permit(f.engine.http("POST", "http://pay/v1"));
    Blocked b = blocked(f.engine.http("POST", "http://pay/v1"));
    assertThat(b.fallback).isTrue();
    assertThat(b.status).isEqualTo(503);
    assertThat(b.body).isEqualTo("{\"status\":\"degraded\"}");
    assertThat(b.contentType).isEqualTo("application/json");
    assertThat(b.headers).containsExactly("Content-Type", "application/json");
    permit(f.engine.http("GET", "http://plain/"));
    Blocked thrown = blocked(f.engine.http("GET", "http://plain/"));
    assertThat(thrown.fallback).isFalse();
    assertThat(thrown.message).startsWith("levee:").contains("plain").contains("concurrency");
  }

  @Test
  void jdbcCarriesTheSqlState() {
    f.apply(
        "resources:\n  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"], operations: [CONNECT] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "  - name: other\n    match: { jdbc: { urls: [\"jdbc:pg:**\"] } }\n"
            + "    concurrency: { max: 1 }\n    on-block: { sql-state: 08004 }\n");
    permit(f.engine.jdbcConnect("jdbc:h2:mem:x"));
    assertThat(blocked(f.engine.jdbcConnect("jdbc:h2:mem:x")).sqlState).isEqualTo("53000");
    permit(f.engine.jdbc("jdbc:pg:x", "select 1"));
    assertThat(blocked(f.engine.jdbc("jdbc:pg:x", "select 1")).sqlState).isEqualTo("08004");
  }

  @Test
  void permitsCarryTheResourceTimeoutsInTheUnitsOfEachApi() {
    f.apply(
        "resources:\n  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
            + "    timeouts: { connect: 1s, read: 1500ms }\n"
            + "  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
            + "    timeouts: { query: 2500ms }\n");
    Permit http = permit(f.engine.http("GET", "http://pay/"));
    assertThat(http.connectTimeoutMillis).isEqualTo(1000);
    assertThat(http.readTimeoutMillis).isEqualTo(1500);
    assertThat(http.queryTimeoutSeconds).isZero();
    Permit jdbc = permit(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    assertThat(jdbc.queryTimeoutSeconds).isEqualTo(3);
    assertThat(jdbc.connectTimeoutMillis).isZero();
    f.ok(http);
    f.ok(jdbc);
  }
}
