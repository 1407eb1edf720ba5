package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.OnBlock;
import org.junit.jupiter.api.Test;

/**
 * {@code backpressure}: which requests watch for refused calls (the permit says), who answers for
 * them, with what, and where it is counted.
 */
class EngineBackpressureTest {
  private static final String DB =
      "  - name: db\n"
          + "    match: { jdbc: { urls: [\"jdbc:h2:*\"] } }\n"
          + "    rate-limit: { rate: 1/m, burst: 1 }\n";
  private static final String SYSTEM =
      "system:\n  adaptive: { min-limit: 10, initial-limit: 10 }\n";

  private final Fixture f = new Fixture();

  private static String shop(String lines) {
    return "  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
        + "    concurrency: { max: 10 }\n"
        + lines;
  }

  /** The db resource's refusal: its first statement takes the one token, the second is refused. */
  private Blocked refusedStatement() {
    permit(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    return blocked(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
  }

  @Test
  void answersAsBlockedWithTheRefusedCallsResourceReasonAndRetryAfter() {
    f.apply("resources:\n" + shop("    backpressure: true\n") + DB);
    Permit request = permit(f.get("/shop/cart"));
    assertThat(request.backpressure).isTrue();
    Blocked refused = refusedStatement();

    Blocked answer = f.engine.backpressure(request, refused);

    assertThat(answer.status).isEqualTo(503);
    assertThat(answer.retryAfterSeconds).isBetween(59, 60).isEqualTo(refused.retryAfterSeconds);
    assertThat(answer.body).isEqualTo("levee: db blocked the call (rate-limit)\n");
    assertThat(answer.contentType).isEqualTo(Defaults.CONTENT_TYPE);
    assertThat(answer.resource).isEqualTo("db");
    assertThat(answer.reason).isEqualTo("rate-limit");
    assertThat(f.view("shop").backpressured(false)).isEqualTo(1);
    assertThat(f.view("db").backpressured(false)).isZero();
  }

  @Test
  void usesTheServletResourcesOwnStatusRetryAfterAndBody() {
    f.apply(
        "resources:\n"
            + shop(
                "    backpressure: true\n"
                    + "    on-block: { status: 429, retry-after: 9s, body: busy, headers: { X-A: b } }\n")
            + DB);
    Blocked answer = f.engine.backpressure(f.get("/shop/a"), refusedStatement());
    assertThat(answer.status).isEqualTo(429);
    assertThat(answer.retryAfterSeconds).isEqualTo(9);
    assertThat(answer.body).isEqualTo("busy");
    assertThat(answer.headers).containsExactly("X-A", "b");
  }

  @Test
  void leavesRequestsAloneByDefault() {
    f.apply("resources:\n" + shop("") + DB);
    Permit request = permit(f.get("/shop/cart"));
    assertThat(request.backpressure).isFalse();
    assertThat(f.engine.backpressure(request, refusedStatement())).isNull();
    assertThat(f.view("shop").backpressured(false)).isZero();
  }

  @Test
  void systemAnswersForTheRequestsItGovernsUnlessTheResourceSaysOtherwise() {
    f.apply(
        SYSTEM
            + "  exclude: [\"/health\"]\n  backpressure: true\nresources:\n"
            + shop("")
            + "  - name: admin\n    match: { servlet: { paths: [\"/admin/**\"] } }\n"
            + "    concurrency: { max: 10 }\n    backpressure: false\n"
            + DB);
    Permit unmatched = permit(f.get("/other"));
    Permit inherited = permit(f.get("/shop/a"));
    assertThat(unmatched.backpressure).isTrue();
    assertThat(inherited.backpressure).isTrue();
    assertThat(permit(f.get("/admin/a")).backpressure).isFalse();
    assertThat(f.get("/health")).isNull();

    Blocked refused = refusedStatement();
    assertThat(f.engine.backpressure(unmatched, refused).status).isEqualTo(503);
    assertThat(f.engine.backpressure(inherited, refused).status).isEqualTo(503);
    assertThat(f.view("system").backpressured(false)).isEqualTo(2);
    assertThat(f.view("shop").backpressured(false)).isZero();
  }

  @Test
  void anExcludedPathKeepsOnlyItsResourcesOwnSetting() {
    f.apply(
        SYSTEM + "  exclude: [\"/shop/**\"]\n  backpressure: true\nresources:\n" + shop("") + DB);
    assertThat(permit(f.get("/shop/a")).backpressure).isFalse();
  }

  @Test
  void monitorModeCountsWithoutAnswering() {
    f.apply("resources:\n" + shop("    mode: monitor\n    backpressure: true\n") + DB);
    Permit request = permit(f.get("/shop/a"));
    assertThat(f.engine.backpressure(request, refusedStatement())).isNull();
    assertThat(f.view("shop").backpressured(true)).isEqualTo(1);
    assertThat(f.view("shop").backpressured(false)).isZero();
  }

  @Test
  void outboundPermitsNeverWatch() {
    f.apply(SYSTEM + "  backpressure: true\nresources:\n" + DB);
    Permit statement = permit(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    Blocked refused = blocked(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    assertThat(statement.backpressure).isFalse();
    assertThat(f.engine.backpressure(statement, refused)).isNull();
  }

  @Test
  void aRefusedMethodCallCarriesItsRetryAfterForTheRequest() {
    BlockAnswers answers = new BlockAnswers("pricing", CallKind.METHOD, OnBlock.DEFAULT);
    Blocked b = answers.answer(Reason.RATE_LIMIT, 2_500_000_000L);
    assertThat(b.exception).isEqualTo(OnBlock.DEFAULT_EXCEPTION);
    assertThat(b.retryAfterSeconds).isEqualTo(3);
    assertThat(answers.answer(Reason.CONCURRENCY, 0).retryAfterSeconds).isEqualTo(1);
  }
}
