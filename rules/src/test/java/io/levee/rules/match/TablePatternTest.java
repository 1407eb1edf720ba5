package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TablePatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    "orders, orders, true",
    "orders, public.orders, true",
    "orders, shop.public.orders, true",
    "orders, orders_2024, false",
    "orders, orders.items, false",
    "Orders, orders, true",
    "order_*, order_lines, true",
    "order_*, orders, false",
    "order_*, public.order_lines, true",
    "*, anything, true",
    "*, s.anything, true",
    "public.orders, public.orders, true",
    "public.orders, shop.public.orders, true",
    "public.orders, orders, false",
    "public.orders, other.orders, false",
    "*.orders, billing.orders, true",
    "*.orders, orders, false",
  })
  void matchesTables(String pattern, String table, boolean expected) {
    assertThat(TablePattern.compile(pattern).matches(table)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a..b", ".a", "a."})
  void rejectsEmptyParts(String pattern) {
    assertThatThrownBy(() -> TablePattern.compile(pattern)).isInstanceOf(PatternException.class);
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {"a..b | 2", ".a | 0", "a. | 2", "order items | 5", "a,b | 1", "f(x) | 1"})
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> TablePattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }
}
