package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClassPatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    "com.acme.PriceClient, com.acme.PriceClient, true",
    "com.acme.PriceClient, com.acme.PriceClients, false",
    "com.acme.PriceClient, com.acme.sub.PriceClient, false",
    "com.acme.PriceClient, org.com.acme.PriceClient, false",
    "com.acme.PriceClient, com.acme.priceclient, false",
    "com.acme.*Client, com.acme.PriceClient, true",
    "com.acme.*Client, com.acme.Client, true",
    "com.acme.*Client, com.acme.sub.PriceClient, false",
    "com.acme.*, com.acme.A, true",
    "com.acme.*, com.acme.a.B, false",
    "com.acme.Outer*, com.acme.Outer$Inner, true",
    "com.acme.Outer$Inner, com.acme.Outer$Inner, true",
    "com.acme.Outer, com.acme.Outer$Inner, false",
    "org.*.PriceClient, org.acme.PriceClient, true",
    "org.*.PriceClient, org.a.b.PriceClient, false",
    "com.acme.**.*Client, com.acme.FooClient, true",
    "com.acme.**.*Client, com.acme.a.FooClient, true",
    "com.acme.**.*Client, com.acme.a.b.c.FooClient, true",
    "com.acme.**.*Client, com.acme.a.b.Foo, false",
    "com.acme.**.*Client, com.acmex.FooClient, false",
    "com.acme.**, com.acme.A, true",
    "com.acme.**, com.acme.a.b.C, true",
    "com.acme.**, com.acmex.A, false",
    "org.**.api.**.*Port, org.x.api.y.z.OrderPort, true",
    "org.**.api.**.*Port, org.api.OrderPort, true",
    "org.**.api.**.*Port, org.x.apix.OrderPort, false",
    "org.**.**.A, org.A, true",
    "com.a*c.B, com.abc.B, true",
    "com.a*c.B, com.ab.B, false",
  })
  void matchesBinaryClassNames(String pattern, String name, boolean expected) {
    assertThat(ClassPattern.compile(pattern).matches(name)).isEqualTo(expected);
  }

  @Test
  void neverMatchesNull() {
    assertThat(ClassPattern.compile("com.acme.**").matches(null)).isFalse();
  }

  @Test
  void lastDoubleStarTakesWhatTheRestOfThePatternLeaves() {
    ClassPattern p = ClassPattern.compile("org.**.Client");
    assertThat(p.matches("org.a.Client.b.Client")).isTrue();
    assertThat(p.matches("org.a.Client.b")).isFalse();
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "com..Foo | 4",
        ".com.Foo | 0",
        "com.Foo. | 8",
        "com/acme/Foo | 3",
        "com.acme.Foo() | 12",
        "com.acme.Foo Bar | 12",
        "com.acme.Foo#quote | 12",
        "com.acme.1Foo | 9",
        "com.acme.a** | 10",
        "com.acme.**x.Foo | 9",
        "com.acme.Foo<T> | 12",
      })
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> ClassPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }

  @Test
  void rejectsAnEmptyPattern() {
    assertThatThrownBy(() -> ClassPattern.compile(""))
        .isInstanceOfSatisfying(
            PatternException.class,
            e -> assertThat(e.getMessage()).startsWith("expected a class name pattern"));
  }

  @Test
  void asksForDotsWhenGivenAnInternalName() {
    assertThatThrownBy(() -> ClassPattern.compile("com/acme/Foo"))
        .hasMessage(
            "a class pattern separates packages with `.`, not `/`,"
                + " like com.acme.pricing.PriceClient, got 'com/acme/Foo'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "java.util.List",
        "java.**",
        "jdk.internal.misc.Unsafe",
        "sun.misc.Unsafe",
        "com.sun.net.httpserver.HttpServer",
        "io.levee.agent.Agent",
        "io.levee.**",
        "net.bytebuddy.ByteBuddy"
      })
  void refusesToNameTheJdkOrTheAgent(String pattern) {
    assertThatThrownBy(() -> ClassPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class,
            e -> {
              assertThat(e.problem()).startsWith("Levee never weaves classes under `");
              assertThat(e.offset()).isEqualTo(0);
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"*.Foo", "**", "**.Foo", "*.acme.Foo"})
  void refusesToStartWithAWildcardSegment(String pattern) {
    assertThatThrownBy(() -> ClassPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "a class pattern cannot start with a wildcard segment, as it could match"
                            + " the JDK's classes and Levee's own, start with the application's"
                            + " package, like com.acme.**.*Client, got '"
                            + pattern
                            + "'"));
  }

  @ParameterizedTest(name = "{0} could reach {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "j*.util.List | java | 1",
        "com.**.Client | com.sun | 4",
        "com.*.net.Foo | com.sun | 4",
        "io.*.agent.Agent | io.levee | 3",
        "net.byte*.ByteBuddy | net.bytebuddy | 8",
        "s*n.misc.Unsafe | sun | 1",
      })
  void refusesAWildcardThatCouldReachTheJdkOrTheAgent(String pattern, String under, int at) {
    assertThatThrownBy(() -> ClassPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class,
            e -> {
              assertThat(e.problem())
                  .startsWith("this pattern could match classes under `" + under + ".`");
              assertThat(e.hint()).startsWith("name the package before any wildcard");
              assertThat(e.offset()).isEqualTo(at);
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "javax.xml.ws.Service",
        "javafx.Foo",
        "jdkx.Foo",
        "sunrise.Foo",
        "com.sunny.Foo",
        "com.acme.**",
        "io.leveex.Foo",
        "net.bytebuddyx.Foo",
        "org.*.Client",
        "*Service",
        "java",
        "com.acme.java.Foo",
        "com.acme.Price$Client"
      })
  void acceptsApplicationClasses(String pattern) {
    assertThat(ClassPattern.compile(pattern).toString()).isEqualTo(pattern);
  }
}
