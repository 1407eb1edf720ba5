package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.Reply;
import org.junit.jupiter.api.Test;

/**
 * OkHttp 4.12, the tests' own line, and Spring's {@code RestTemplate} over it ({@code
 * OkHttp3ClientHttpRequestFactory} of spring-web 5.3): one decision per template call.
 */
class OkHttp4Jdk17IT extends OkHttpContract {
  @Override
  protected String line() {
    return null;
  }

  @Override
  protected String okhttpJar() {
    return "okhttp-4.12.0.jar";
  }

  @Test
  void restTemplateOverOkHttpIsOneDecisionPerCall() {
    for (int i = 0; i < 3; i++) {
      Reply r = call(templated, "&via=resttemplate");
      assertThat(r.get("status")).as(r.raw()).isEqualTo("200");
      assertThat(r.get("body")).isEqualTo("ok");
    }
    assertThat(decisions("templated")).containsExactly(3, 0);

    // Three failures after three successes: 50% of six calls opens the breaker.
    templated.fail();
    for (int i = 0; i < 3; i++) {
      Reply r = call(templated, "&via=resttemplate");
      assertThat(r.get("status")).as(r.raw()).isEqualTo("500");
    }
    Reply blocked = call(templated, "&via=resttemplate");
    assertThat(blocked.get("class"))
        .as(blocked.raw())
        .isEqualTo("org.springframework.web.client.ResourceAccessException");
    assertThat(blocked.get("cause")).isEqualTo("java.io.IOException");
    assertThat(blocked.get("causeMessage")).startsWith("levee:").contains("templated");
    assertThat(decisions("templated")).containsExactly(6, 1);
    assertThat(templated.received()).isEqualTo(6);
  }

  @Test
  void restTemplateGetsTheFallbackAsTheServersOwnAnswer() {
    templatedDegraded.refuse();
    for (int i = 0; i < 5; i++) {
      Reply r = call(templatedDegraded, "&via=resttemplate");
      assertThat(r.get("cause")).as(r.raw()).isEqualTo("java.net.ConnectException");
    }
    templatedDegraded.ok();
    // RestTemplate's default error handler throws for a 503; the application reads its body.
    Reply r = call(templatedDegraded, "&via=resttemplate");
    assertThat(r.get("status")).as(r.raw()).isEqualTo("503");
    assertThat(r.get("body")).isEqualTo("{\"status\":\"degraded\"}");
    assertThat(r.get("contentType")).isEqualTo("application/json");
    assertThat(decisions("templated-degraded")).containsExactly(5, 1);
    assertThat(templatedDegraded.received()).isZero();
  }
}
