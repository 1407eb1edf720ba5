package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code fallback.last-good} through the engine: what is kept, what a blocked call gets. */
class EngineLastGoodTest {
  private static final String PRICES =
      "  - name: prices\n    match: { http: { urls: [\"http://prices/**\"] } }\n"
          + "    concurrency: { max: 1 }\n"
          + "    on-block: { fallback: { last-good: 1m, status: 503, body: static } }\n";
  private static final String PLAIN =
      "  - name: plain\n    match: { http: { urls: [\"http://plain/**\"] } }\n"
          + "    concurrency: { max: 1 }\n"
          + "    on-block: { fallback: { status: 503, body: static } }\n";
  private static final String[] JSON = {"Content-Type", "application/json"};

  private final Fixture f = new Fixture();

  /** An admitted GET to {@code url} whose 200 answer {@code body} is read to its end. */
  private void answered(String url, String body) {
    Permit p = permit(f.engine.http("GET", url));
    assertThat(f.engine.keepsLastGood(p)).isTrue();
    LastGoodKeeper keeper = f.engine.lastGood(p, "GET", url, 200, JSON);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    keeper.keep(bytes, bytes.length);
    f.ok(p);
  }

  private static String body(HttpAnswer answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }

  @Test
  void aBlockedGetGetsTheLastGoodAnswerOfItsUrl() {
    f.apply("resources:\n" + PRICES);
    answered("http://prices/eur", "[1,2,3]");
    Permit held = permit(f.engine.http("GET", "http://prices/usd"));
    f.clock.advance(7, TimeUnit.SECONDS);

    Blocked b = blocked(f.engine.http("GET", "http://prices/eur"));
    assertThat(b.fallback).isTrue();
    assertThat(b.status).isEqualTo(200);
    HttpAnswer answer = HttpAnswer.of(b);
    assertThat(answer.status).isEqualTo(200);
    assertThat(body(answer)).isEqualTo("[1,2,3]");
    assertThat(answer.header("Content-Type")).isEqualTo("application/json");
    assertThat(answer.header("Levee-Fallback")).isEqualTo("last-good; age=7");

    Blocked other = blocked(f.engine.http("GET", "http://prices/gbp"));
    assertThat(other.lastGood).isNull();
    assertThat(HttpAnswer.of(other).status).isEqualTo(503);
    assertThat(body(HttpAnswer.of(other))).isEqualTo("static");
    Blocked post = blocked(f.engine.http("POST", "http://prices/eur"));
    assertThat(post.lastGood).isNull();

    assertThat(f.view("prices").fallbacks(true)).isEqualTo(1);
    assertThat(f.view("prices").fallbacks(false)).isEqualTo(2);
    assertThat(f.view("prices").lastGoodKept()).isEqualTo(1);
    f.ok(held);
  }

  @Test
  void theStaticFallbackAnswersOnceTheLastGoodAnswerIsTooOld() {
    f.apply("resources:\n" + PRICES);
    answered("http://prices/eur", "[1]");
    Permit held = permit(f.engine.http("GET", "http://prices/usd"));
    f.clock.advance(61, TimeUnit.SECONDS);
    assertThat(blocked(f.engine.http("GET", "http://prices/eur")).lastGood).isNull();
    f.ok(held);
  }

  @Test
  void keepsNothingForAResourceWithoutLastGoodOrForWhatIsNotAGoodGet() {
    f.apply("resources:\n" + PRICES + PLAIN);
    Permit plain = permit(f.engine.http("GET", "http://plain/a"));
    assertThat(f.engine.keepsLastGood(plain)).isFalse();
    assertThat(f.engine.lastGood(plain, "GET", "http://plain/a", 200, JSON)).isNull();
    f.ok(plain);
    assertThat(f.engine.keepsLastGood(null)).isFalse();
    assertThat(f.engine.keepsLastGood("not a permit")).isFalse();

    Permit prices = permit(f.engine.http("POST", "http://prices/a"));
    assertThat(f.engine.lastGood(prices, "POST", "http://prices/a", 200, JSON)).isNull();
    f.ok(prices);
    prices = permit(f.engine.http("GET", "http://prices/a"));
    assertThat(f.engine.lastGood(prices, "GET", "http://prices/a", 503, JSON)).isNull();
    assertThat(
            f.engine.lastGood(
                prices, "GET", "http://prices/a", 200, new String[] {"Cache-Control", "private"}))
        .isNull();
    f.ok(prices);
  }

  @Test
  void monitorModeKeepsNothingAsItBlocksNothing() {
    f.apply(
        "resources:\n" + PRICES.replace("    concurrency", "    mode: monitor\n    concurrency"));
    Permit p = permit(f.engine.http("GET", "http://prices/a"));
    assertThat(f.engine.keepsLastGood(p)).isFalse();
    f.ok(p);
  }

  @Test
  void aReloadThatLeavesTheResourceUnchangedKeepsItsAnswersAndAChangeForgetsThem() {
    f.apply("resources:\n" + PRICES);
    answered("http://prices/eur", "[1]");
    f.apply("resources:\n" + PRICES + PLAIN);
    assertThat(f.view("prices").lastGoodKept()).isEqualTo(1);
    f.apply("resources:\n" + PRICES.replace("1m", "2m"));
    assertThat(f.view("prices").lastGoodKept()).isZero();
  }

  @Test
  void forgetsEveryAnswerWhenTheAgentDetaches() {
    f.apply("resources:\n" + PRICES);
    answered("http://prices/eur", "[1]");
    f.engine.forgetLastGood();
    assertThat(f.view("prices").lastGoodKept()).isZero();
    Permit p = permit(f.engine.http("GET", "http://prices/eur"));
    f.engine.lastGood(p, "GET", "http://prices/eur", 200, JSON).keep(new byte[1], 1);
    assertThat(f.view("prices").lastGoodKept()).isZero();
    f.ok(p);
  }
}
