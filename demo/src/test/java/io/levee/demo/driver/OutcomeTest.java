package io.levee.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;

class OutcomeTest {
  @Test
  void aFallbackPriceIsServedNotBlocked() {
    Outcome o = Outcome.of(200, "{\"quote\":{\"price\":null,\"source\":\"fallback\"}}", false);
    assertThat(o.kind()).isEqualTo(Outcome.Kind.FALLBACK);
  }

  @Test
  void aTooManyRequestsIsARateLimit() {
    Outcome o = Outcome.of(429, "levee: tenant over its rate limit (orders-api)", true);
    assertThat(o).isEqualTo(new Outcome(Outcome.Kind.BLOCKED, "429 rate", true));
  }

  @Test
  void aSystemShedIsToldApartFromAConcurrencyLimit() {
    assertThat(Outcome.of(503, "levee: overloaded (system adaptive limit)", true).reason())
        .isEqualTo("503 system");
    assertThat(
            Outcome.of(503, "{\"detail\":\"levee: sales-report: concurrency limit\"}", false)
                .reason())
        .isEqualTo("503 concurrency");
  }

  @Test
  void theApplicationsOwnErrorsAreErrors() {
    assertThat(Outcome.of(502, "{\"error\":\"partner\",\"status\":500}", false).kind())
        .isEqualTo(Outcome.Kind.ERROR);
    assertThat(Outcome.failed(new HttpTimeoutException("request timed out")).reason())
        .isEqualTo("timeout");
  }
}
