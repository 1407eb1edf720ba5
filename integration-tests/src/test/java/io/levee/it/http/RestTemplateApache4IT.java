package io.levee.it.http;

import java.util.List;

/**
 * Spring's RestTemplate (5.3) over HttpClient 4.5: one call to the breaker per exchange, and a
 * blocked one surfaces as RestTemplate's {@code ResourceAccessException} with the {@code levee:}
 * IOException as its cause.
 */
class RestTemplateApache4IT extends ApacheContract {
  @Override
  protected String client() {
    return "rest";
  }

  @Override
  protected List<String> forms() {
    return List.of("plain");
  }

  @Override
  protected String blockedException() {
    return "org.springframework.web.client.ResourceAccessException";
  }

  @Override
  protected String responseType() {
    return "ResponseEntity";
  }
}
