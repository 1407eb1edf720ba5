package io.levee.bootstrap.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServletSupportTest {
  @Test
  void keepsAPlainUriWithoutCopying() {
    String uri = "/app/shop/checkout";
    assertThat(ServletSupport.path(uri, "/app", "/shop", "/checkout")).isSameAs(uri);
  }

  @Test
  void rebuildsFromDecodedPartsWhenTheUriHasPathParameters() {
    assertThat(ServletSupport.path("/app/shop;jsessionid=ABC", "/app", "/shop", null))
        .isEqualTo("/app/shop");
  }

  @Test
  void rebuildsFromDecodedPartsWhenTheUriIsEscapedOrHasDotSegments() {
    assertThat(ServletSupport.path("/app/shop/%63heckout", "/app", "/shop", "/checkout"))
        .isEqualTo("/app/shop/checkout");
    assertThat(ServletSupport.path("/app/shop/./checkout", "/app", "/shop", "/checkout"))
        .isEqualTo("/app/shop/checkout");
    assertThat(ServletSupport.path("/app//shop", "/app", "/shop", null)).isEqualTo("/app/shop");
  }

  @Test
  void answersRootWhenNothingIsKnown() {
    assertThat(ServletSupport.path(null, null, null, null)).isEqualTo("/");
    assertThat(ServletSupport.path(null, "", "", null)).isEqualTo("/");
  }
}
