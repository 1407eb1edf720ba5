package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MethodNamePatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    "quote, quote, true",
    "quote, quotes, false",
    "quote, Quote, false",
    "find*, find, true",
    "find*, findAll, true",
    "find*, refind, false",
    "*Async, quoteAsync, true",
    "*Async, quoteAsyncly, false",
    "*, anything, true",
    "**, anything, true",
    "get*By*, getPriceById, true",
    "get*By*, getPrice, false",
    "lambda$*, lambda$quote$0, true",
  })
  void matchesMethodNames(String pattern, String name, boolean expected) {
    assertThat(MethodNamePattern.compile(pattern).matches(name)).isEqualTo(expected);
  }

  @Test
  void neverMatchesNull() {
    assertThat(MethodNamePattern.compile("*").matches(null)).isFalse();
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "quote() | 5",
        "PriceClient.quote | 11",
        "PriceClient#quote | 11",
        "<init> | 0",
        "find by | 4",
        "1quote | 0",
        "quote-all | 5",
      })
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> MethodNamePattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }

  @Test
  void explainsThatConstructorsAreNeverWoven() {
    assertThatThrownBy(() -> MethodNamePattern.compile("<init>"))
        .hasMessage(
            "a method pattern cannot contain `<`, as constructors and static initialisers are"
                + " never woven, like quote or find*, got '<init>'");
  }

  @Test
  void asksForTheNameAloneWhenGivenASignature() {
    assertThatThrownBy(() -> MethodNamePattern.compile("quote(String)"))
        .hasMessage(
            "a method pattern is a method's name alone, without `(`, as the class goes in `class`"
                + " and every overload is matched, like quote or find*, got 'quote(String)'");
  }
}
