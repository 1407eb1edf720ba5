package io.levee.rules.lastgood;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.rules.model.LastGoodSpec;
import io.levee.rules.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LastGoodCacheTest {
  private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);
  private static final String[] JSON = {"Content-Type", "application/json"};

  private final ManualClock clock = new ManualClock();
  private LastGoodCache cache = new LastGoodCache(new LastGoodSpec(5 * MINUTE, 1024, 3), clock);

  private void keep(String url, String body, String... headers) {
    LastGoodKeeper keeper = cache.keeper(url, 200, headers);
    assertThat(keeper).as("a keeper for %s", url).isNotNull();
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    keeper.keep(bytes, bytes.length);
  }

  private static String body(HttpAnswer answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }

  @Test
  void answersWithTheLastGoodAnswerOfTheSameUrlMarkedWithItsAge() {
    keep("http://prices/eur?day=1", "[1,2]", "Content-Type", "application/json", "X-Version", "7");
    clock.advance(90, TimeUnit.SECONDS);

    HttpAnswer answer = cache.answer("http://prices/eur?day=1");
    assertThat(answer.status).isEqualTo(200);
    assertThat(answer.reason).isEqualTo("OK");
    assertThat(body(answer)).isEqualTo("[1,2]");
    assertThat(answer.header("Content-Type")).isEqualTo("application/json");
    assertThat(answer.header("X-Version")).isEqualTo("7");
    assertThat(answer.header("Content-Length")).isEqualTo("5");
    assertThat(answer.header("Levee-Fallback")).isEqualTo("last-good; age=90");
    assertThat(cache.answer("http://prices/eur?day=2")).isNull();
    assertThat(cache.answer("http://prices/usd?day=1")).isNull();
    assertThat(cache.served()).isEqualTo(1);
  }

  @Test
  void theLatestGoodAnswerReplacesTheEarlierOne() {
    keep("http://p/a", "one", JSON);
    clock.advance(10, TimeUnit.SECONDS);
    keep("http://p/a", "two", JSON);
    HttpAnswer answer = cache.answer("http://p/a");
    assertThat(body(answer)).isEqualTo("two");
    assertThat(answer.header("Levee-Fallback")).isEqualTo("last-good; age=0");
  }

  @Test
  void servesNoAnswerOlderThanLastGood() {
    keep("http://p/a", "old", JSON);
    clock.advanceNanos(5 * MINUTE);
    assertThat(cache.answer("http://p/a")).isNotNull();
    clock.advanceNanos(1);
    assertThat(cache.answer("http://p/a")).isNull();
    assertThat(cache.size()).isZero();
  }

  @Test
  void keepsAtMostMaxEntriesTheLeastRecentlyUsedGoingFirst() {
    keep("http://p/1", "1", JSON);
    keep("http://p/2", "2", JSON);
    keep("http://p/3", "3", JSON);
    assertThat(cache.answer("http://p/1")).isNotNull(); // used: 2 is now the least recent
    keep("http://p/4", "4", JSON);
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.answer("http://p/2")).isNull();
    assertThat(cache.answer("http://p/1")).isNotNull();
    assertThat(cache.answer("http://p/3")).isNotNull();
    assertThat(cache.answer("http://p/4")).isNotNull();
  }

  @Test
  void neverKeepsNoStoreOrPrivateAnswersAndForgetsTheEarlierOne() {
    keep("http://p/a", "kept", JSON);
    assertThat(cache.keeper("http://p/a", 200, new String[] {"Cache-Control", "no-store"}))
        .isNull();
    assertThat(cache.answer("http://p/a")).isNull();
    assertThat(
            cache.keeper(
                "http://p/b", 200, new String[] {"cache-control", "max-age=60, Private=\"X\""}))
        .isNull();
    assertThat(
            cache.keeper(
                "http://p/c",
                200,
                new String[] {"Cache-Control", "public", "Cache-Control", "NO-STORE"}))
        .isNull();
    assertThat(cache.keeper("http://p/d", 200, new String[] {"Cache-Control", "no-cache"}))
        .isNotNull();
    assertThat(cache.keeper("http://p/e", 200, new String[] {"Cache-Control", "max-age=0"}))
        .isNotNull();
  }

  @Test
  void keepsOnly2xxAnswers() {
    assertThat(cache.keeper("http://p/a", 199, JSON)).isNull();
    assertThat(cache.keeper("http://p/a", 204, JSON)).isNotNull();
    assertThat(cache.keeper("http://p/a", 301, JSON)).isNull();
    assertThat(cache.keeper("http://p/a", 500, JSON)).isNull();
  }

  @Test
  void keepsNoBodyLongerThanMaxBody() {
    assertThat(cache.keeper("http://p/a", 200, new String[] {"Content-Length", "1025"})).isNull();
    LastGoodKeeper keeper =
        cache.keeper("http://p/a", 200, new String[] {"Content-Length", "1024"});
    assertThat(keeper.maxBody).isEqualTo(1024);
    assertThat(keeper.expectedLength).isEqualTo(1024);

    LastGoodKeeper chunked = cache.keeper("http://p/b", 200, JSON);
    assertThat(chunked.expectedLength).isEqualTo(-1);
    BodyTee tee = new BodyTee(chunked);
    tee.copy(new byte[1000], 0, 1000);
    tee.copy(new byte[25], 0, 25);
    tee.end();
    assertThat(cache.answer("http://p/b")).isNull();
  }

  @Test
  void keepsNoBodyShorterThanItsHeadersAnnounced() {
    LastGoodKeeper keeper = cache.keeper("http://p/a", 200, new String[] {"Content-Length", "10"});
    keeper.keep(new byte[9], 9);
    assertThat(cache.answer("http://p/a")).isNull();
    keeper.keep(new byte[12], 10);
    assertThat(cache.answer("http://p/a").bodyLength()).isEqualTo(10);
  }

  @Test
  void keepsTheHeadersThatDescribeTheBodyAndSetsItsLength() {
    keep(
        "http://p/a",
        "abc",
        "Content-Type",
        "text/csv",
        "Connection",
        "keep-alive, X-Hop",
        "X-Hop",
        "1",
        "Keep-Alive",
        "timeout=5",
        "Transfer-Encoding",
        "chunked",
        "Content-Length",
        "3",
        "Set-Cookie",
        "session=secret",
        "Levee-Fallback",
        "forged",
        "ETag",
        "\"v1\"",
        "Content-Encoding",
        "identity");
    HttpAnswer answer = cache.answer("http://p/a");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < answer.headerCount(); i++) {
      names.add(answer.headerName(i) + ": " + answer.headerValue(i));
    }
    assertThat(names)
        .containsExactly(
            "Content-Type: text/csv",
            "ETag: \"v1\"",
            "Content-Encoding: identity",
            "Content-Length: 3",
            "Levee-Fallback: last-good; age=0");
  }

  @Test
  void givesEveryAnswerAContentType() {
    keep("http://p/a", "x");
    assertThat(cache.answer("http://p/a").header("Content-Type"))
        .isEqualTo("application/octet-stream");
  }

  @Test
  void aCallerCannotChangeTheKeptAnswer() {
    byte[] bytes = "abc".getBytes(StandardCharsets.UTF_8);
    cache.keeper("http://p/a", 200, JSON).keep(bytes, 3);
    bytes[0] = 'X';
    cache.answer("http://p/a").body()[1] = 'Y';
    assertThat(body(cache.answer("http://p/a"))).isEqualTo("abc");
  }

  @Test
  void forgetsEverythingAndKeepsNothingOnceClosed() {
    keep("http://p/a", "a", JSON);
    LastGoodKeeper late = cache.keeper("http://p/b", 200, JSON);
    cache.close();
    late.keep(new byte[1], 1);
    assertThat(cache.size()).isZero();
    assertThat(cache.answer("http://p/a")).isNull();
    assertThat(cache.answer("http://p/b")).isNull();
  }

  @Test
  void aBodyReadToItsAnnouncedLengthIsWholeEvenIfClosedThere() {
    cache = new LastGoodCache(new LastGoodSpec(MINUTE, 100, 10), clock);
    BodyTee exact =
        new BodyTee(cache.keeper("http://p/a", 200, new String[] {"Content-Length", "4"}));
    exact.copy(new byte[] {1, 2}, 0, 2);
    exact.copy(3);
    exact.copy(4);
    exact.closed();
    assertThat(cache.answer("http://p/a").body()).containsExactly(1, 2, 3, 4);

    BodyTee early =
        new BodyTee(cache.keeper("http://p/b", 200, new String[] {"Content-Length", "4"}));
    early.copy(new byte[] {1, 2, 3}, 0, 3);
    early.closed();
    assertThat(cache.answer("http://p/b")).isNull();

    BodyTee unknown = new BodyTee(cache.keeper("http://p/c", 200, JSON));
    unknown.copy(new byte[] {1, 2, 3}, 0, 3);
    unknown.closed();
    assertThat(cache.answer("http://p/c")).isNull();

    BodyTee ended = new BodyTee(cache.keeper("http://p/d", 200, JSON));
    ended.copy(new byte[] {1, 2, 3}, 0, 3);
    ended.end();
    ended.closed();
    assertThat(cache.answer("http://p/d").body()).containsExactly(1, 2, 3);
  }
}
