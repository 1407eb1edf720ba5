package io.levee.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServletSupportTest {
  @Test
  void keepsAPlainRequestUriAsItIs() {
    String uri = "/app/shop/checkout";
    assertThat(ServletSupport.path(uri)).isSameAs(uri);
  }

  @Test
  void dropsPathParametersFromEverySegment() {
    assertThat(ServletSupport.path("/app/shop;jsessionid=ABC")).isEqualTo("/app/shop");
    assertThat(ServletSupport.path("/app;v=1/shop;x=2/pay")).isEqualTo("/app/shop/pay");
  }

  @Test
  void answersRootForAMissingUri() {
    assertThat(ServletSupport.path(null)).isEqualTo("/");
  }
}
