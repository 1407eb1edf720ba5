package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathPatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    // literal
    "/health, /health, true",
    "/health, /healthz, false",
    "/health, /Health, false",
    "/health, /api/health, false",
    "/, /, true",
    "/, /a, false",
    // * is one segment
    "/api/*, /api/users, true",
    "/api/*, /api/users/1, false",
    "/api/*, /api, false",
    "/*/items, /shop/items, true",
    "/*/items, /shop/x/items, false",
    // glob inside a segment
    "/files/*.json, /files/a.json, true",
    "/files/*.json, /files/.json, true",
    "/files/*.json, /files/a.xml, false",
    "/files/*.json, /files/d/a.json, false",
    "/v*/users, /v2/users, true",
    "/a*b*c, /aXbYc, true",
    "/a*b*c, /aXcYb, false",
    // {name} is one whole segment
    "/item/{id}, /item/42, true",
    "/item/{id}, /item/42/edit, false",
    "/item/{id}/edit, /item/42/edit, true",
    "/item/{id}, /item, false",
    // ** is any number of segments, none included
    "/shop/**, /shop, true",
    "/shop/**, /shop/a/b/c, true",
    "/shop/**, /shopping, false",
    "/**, /, true",
    "/**, /anything/at/all, true",
    "/**/edit, /edit, true",
    "/**/edit, /a/b/edit, true",
    "/**/edit, /a/b/edit/x, false",
    "/a/**/b/**/c, /a/b/c, true",
    "/a/**/b/**/c, /a/x/b/y/z/c, true",
    "/a/**/b/**/c, /a/x/y/c, false",
    "/a/**/*.css, /a/x/y/site.css, true",
    "/a/**/*.css, /a/x/y/site.js, false",
    // what a path carries besides its segments
    "/a/b, /a/b?x=1, true",
    "/a/b, /a/b#top, true",
    "/a/b, /a/b;jsessionid=123, true",
    "/a/b, /a;v=1/b, true",
    "/a/b, /a/b/, true",
    "/a/b, //a//b, true",
    "/a/b, /a/;x=1/b, true",
    "/a/b, /a/bc;x, false",
    "/a/b/**, /a/b?/c, true",
  })
  void matchesPaths(String pattern, String path, boolean expected) {
    assertThat(PathPattern.compile(pattern).matches(path)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "api/*",
        "/a**/b",
        "/a/{id",
        "/a/{}",
        "/a/{id}.json",
        "/a?x=1",
        "/a;x",
        "/a b",
        "/a/{a.b}",
        "/a/{*}"
      })
  void rejectsInvalidPatterns(String pattern) {
    assertThatThrownBy(() -> PathPattern.compile(pattern))
        .isInstanceOf(PatternException.class)
        .hasMessageContaining(pattern);
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "api/*            | -1",
        "/a**/b           | 2",
        "/users/{id       | 7",
        "/users/id}       | 9",
        "/files/{id}.json | 7",
        "/a/{a.b}         | 5",
        "/a/b c           | 4",
        "/a?x=1           | 2",
      })
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> PathPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/a/b", "/**"})
  void nullPathNeverMatches(String pattern) {
    assertThat(PathPattern.compile(pattern).matches(null)).isFalse();
  }
}
