package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlPatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    // scheme
    "https://pay.example.com/v1/**, https://pay.example.com/v1/charge, true",
    "https://pay.example.com/v1/**, http://pay.example.com/v1/charge, false",
    "https://pay.example.com/v1/**, HTTPS://PAY.Example.COM/v1/charge, true",
    "*://pay.example.com/**, http://pay.example.com/x, true",
    "*://pay.example.com/**, https://pay.example.com/x, true",
    // host labels
    "https://*.example.com/**, https://api.example.com/x, true",
    "https://*.example.com/**, https://a.b.example.com/x, false",
    "https://*.example.com/**, https://example.com/x, false",
    "https://**.example.com/**, https://a.b.example.com/x, true",
    "https://**.example.com/**, https://example.com/x, true",
    "https://**.example.com/**, https://example.org/x, false",
    "https://**.example.com/**, https://badexample.com/x, false",
    "https://api-*.example.com/**, https://api-eu.example.com/x, true",
    "https://api-*.example.com/**, https://web-eu.example.com/x, false",
    "https://*/**, https://localhost/x, true",
    "https://*/**, https://a.b.c/x, true",
    "http://example.com/**, http://example.com./x, true",
    "http://example.com/**, http://user:pw@example.com/x, true",
    "http://*/**, http://[::1]/x, true",
    "http://*:8080/**, http://[::1]:8080/x, true",
    "http://*:8080/**, http://[::1]:8081/x, false",
    // ports
    "https://h/**, https://h/x, true",
    "https://h/**, https://h:443/x, true",
    "https://h/**, https://h:8443/x, false",
    "http://h/**, http://h:80/x, true",
    "http://h/**, http://h:8080/x, false",
    "http://h:8080/**, http://h:8080/x, true",
    "http://h:8080/**, http://h/x, false",
    "http://h:80/**, http://h/x, true",
    "http://h:*/**, http://h:1234/x, true",
    "http://h:*/**, http://h/x, true",
    "*://h/**, http://h/x, true",
    "*://h/**, https://h:443/x, true",
    "*://h/**, http://h:8080/x, false",
    // path, query and fragment
    "https://h/v1/*/status, https://h/v1/42/status?verbose=1#top, true",
    "https://h/v1/*/status, https://h/v1/42/other, false",
    "https://h/v1/**, https://h/v1, true",
    "https://h/v1/**, https://h/v2/x, false",
    "https://h/, https://h, true",
    "https://h/, https://h/x, false",
    "https://h/A/**, https://h/a/x, false",
    "https://h/**, https://h?q=1, true",
    "https://h/**, not a url, false",
  })
  void matchesUrls(String pattern, String url, boolean expected) {
    assertThat(UrlPattern.compile(pattern).matches(url)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "example.com/x",
        "://h/x",
        "http:///x",
        "http://h:port/x",
        "http://h:99999/",
        "http://a..b/",
        "http://a**b/",
        "http://h/x?q=1",
        "http://h/a**",
        "https://h",
        "ftp://h/x",
        "HTTP://h/x",
        "http://[::1]/**",
        "http://h:/x",
        "http://h/{id}x",
        "http://h/a b"
      })
  void rejectsInvalidPatterns(String pattern) {
    assertThatThrownBy(() -> UrlPattern.compile(pattern))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pay.example.com/** | -1",
        "ftp://h/x          | 0",
        "https://h          | 9",
        "http:///x          | 7",
        "http://h:99999/    | 9",
        "http://a..b/       | 9",
        "http://a@b/        | 8",
        "http://h/a**/x     | 10",
        "http://[::1]/x     | 7",
      })
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> UrlPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }

  @ParameterizedTest
  @ValueSource(strings = {"*://**/**", "https://h/x"})
  void nullUrlNeverMatches(String pattern) {
    assertThat(UrlPattern.compile(pattern).matches(null)).isFalse();
  }
}
