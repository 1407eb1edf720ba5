package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.LastGoodSpec;
import io.levee.rules.model.OnBlock;
import org.junit.jupiter.api.Test;

/** {@code on-block.fallback.last-good} and its bounds: what loads, and each error it can make. */
class LastGoodRulesTest {
  private static final long MINUTE = 60_000_000_000L;

  private static String fallback(String fields) {
    return resource(HTTP, "circuit-breaker: {}", "on-block: { fallback: { " + fields + " } }");
  }

  private static LastGoodSpec lastGood(String fields) {
    return only(fallback(fields)).onBlock.fallback.lastGood;
  }

  @Test
  void readsLastGoodWithItsBounds() {
    OnBlock.Fallback f =
        only(fallback("last-good: 5m, status: 503, body: busy, max-body: 64KiB, max-entries: 200"))
            .onBlock
            .fallback;
    assertThat(f.status).isEqualTo(503);
    assertThat(f.body).isEqualTo("busy");
    assertThat(f.lastGood.ageNanos).isEqualTo(5 * MINUTE);
    assertThat(f.lastGood.maxBody).isEqualTo(64 * 1024);
    assertThat(f.lastGood.maxEntries).isEqualTo(200);
  }

  @Test
  void defaultsTo256KiBAndAThousandEntries() {
    LastGoodSpec spec = lastGood("last-good: 30s");
    assertThat(spec.maxBody).isEqualTo(256 * 1024);
    assertThat(spec.maxEntries).isEqualTo(1000);
  }

  @Test
  void keepsNothingWithoutLastGood() {
    assertThat(lastGood("status: 503")).isNull();
  }

  @Test
  void readsSizesInBytesKibibytesAndMebibytes() {
    assertThat(lastGood("last-good: 1m, max-body: 65536").maxBody).isEqualTo(65536);
    assertThat(lastGood("last-good: 1m, max-body: 100B").maxBody).isEqualTo(100);
    assertThat(lastGood("last-good: 1m, max-body: 1MiB").maxBody).isEqualTo(1024 * 1024);
    assertThat(lastGood("last-good: 1m, max-body: 1_024KiB").maxBody).isEqualTo(1024 * 1024);
    assertThat(lastGood("last-good: 1m, max-body: 16MiB").maxBody).isEqualTo(16 * 1024 * 1024);
  }

  @Test
  void refusesDecimalUnitsRatherThanGuessing() {
    assertThat(errors(fallback("last-good: 1m, max-body: 256KB")))
        .containsExactly(
            "resources[0].on-block.fallback.max-body: write sizes in bytes, KiB or MiB"
                + " (1 KiB = 1024 bytes), got 256KB");
  }

  @Test
  void rejectsSizesOutOfBounds() {
    assertThat(errors(fallback("last-good: 1m, max-body: 0")))
        .containsExactly("resources[0].on-block.fallback.max-body: must be at least 1 byte, got 0");
    assertThat(errors(fallback("last-good: 1m, max-body: 17MiB")))
        .containsExactly(
            "resources[0].on-block.fallback.max-body: must be at most 16MiB, got 17MiB");
    assertThat(errors(fallback("last-good: 1m, max-body: big")))
        .containsExactly(
            "resources[0].on-block.fallback.max-body: expected a size like 256KiB, 1MiB or 65536"
                + " (bytes), got 'big'");
  }

  @Test
  void requiresAPositiveNumberOfEntries() {
    assertThat(errors(fallback("last-good: 1m, max-entries: 0")))
        .containsExactly("resources[0].on-block.fallback.max-entries: must be at least 1, got 0");
    assertThat(errors(fallback("last-good: 1m, max-entries: 1000001")))
        .containsExactly(
            "resources[0].on-block.fallback.max-entries: must be at most 100000, got 1000001");
  }

  @Test
  void requiresADurationOfMoreThanZero() {
    assertThat(errors(fallback("last-good: 0")))
        .containsExactly("resources[0].on-block.fallback.last-good: must be more than 0, got 0");
    assertThat(errors(fallback("last-good: forever")))
        .containsExactly(
            "resources[0].on-block.fallback.last-good: expected a duration like 250ms or 2s, got"
                + " 'forever'");
  }

  @Test
  void rejectsBoundsWithoutLastGood() {
    assertThat(errors(fallback("status: 503, max-body: 1MiB, max-entries: 10")))
        .containsExactly(
            "resources[0].on-block.fallback.max-body: `max-body` bounds the last good answers,"
                + " which are kept only with `last-good`; add last-good: 5m, or leave `max-body`"
                + " out",
            "resources[0].on-block.fallback.max-entries: `max-entries` bounds the last good"
                + " answers, which are kept only with `last-good`; add last-good: 5m, or leave"
                + " `max-entries` out");
  }

  @Test
  void rejectsVaryAsNotSupportedYet() {
    assertThat(errors(fallback("last-good: 5m, vary: [Accept-Language]")))
        .containsExactly(
            "resources[0].on-block.fallback.vary: `vary` is not supported yet: the last good"
                + " answer is kept per URL, whatever the request's headers; leave `vary` out"
                + " (requests that differ by a header need different URLs to be kept apart)");
  }

  @Test
  void rejectsLastGoodOnAResourceThatMatchesNoGet() {
    String yaml =
        resource(
            "http: { urls: [\"https://pay.example.com/**\"], methods: [POST, PUT] }",
            "circuit-breaker: {}",
            "on-block: { fallback: { last-good: 5m } }");
    assertThat(errors(yaml))
        .containsExactly(
            "resources[0].on-block.fallback.last-good: `last-good` answers only GET calls, and"
                + " this resource matches POST, PUT; add GET to the match's methods, or leave"
                + " `last-good` out");
    String withGet =
        resource(
            "http: { urls: [\"https://pay.example.com/**\"], methods: [GET, POST] }",
            "circuit-breaker: {}",
            "on-block: { fallback: { last-good: 5m } }");
    assertThat(only(withGet).onBlock.fallback.lastGood).isNotNull();
  }

  @Test
  void allowsLastGoodOnlyOnHttpResources() {
    assertThat(
            errors(
                resource(
                    JDBC, "concurrency: { max: 1 }", "on-block: { fallback: { last-good: 5m } }")))
        .containsExactly(
            "resources[0].on-block.fallback: `fallback` applies only to http resources; this"
                + " resource matches jdbc calls");
  }

  @Test
  void aChangedBoundIsAChangedRule() {
    assertThat(only(fallback("last-good: 5m")))
        .isEqualTo(only(fallback("last-good: 5m, max-body: 256KiB, max-entries: 1000")))
        .isNotEqualTo(only(fallback("last-good: 5m, max-entries: 999")))
        .isNotEqualTo(only(fallback("last-good: 4m")));
  }
}
