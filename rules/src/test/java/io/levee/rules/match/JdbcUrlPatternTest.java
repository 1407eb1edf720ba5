package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JdbcUrlPatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://*/orders* | jdbc:postgresql://db1:5432/orders | true",
        "jdbc:postgresql://*/orders* | jdbc:postgresql://db1/orders_archive | true",
        "jdbc:postgresql://*/orders* | jdbc:postgresql://db1/billing | false",
        "jdbc:postgresql://*/orders* | jdbc:postgresql://db1/x/orders | false",
        "jdbc:postgresql://**/orders | jdbc:postgresql://db1/x/orders | true",
        "jdbc:postgresql://*/orders* | jdbc:mysql://db1/orders | false",
        "jdbc:postgresql://*/orders | JDBC:PostgreSQL://db1/orders | true",
        "jdbc:postgresql://*/orders | jdbc:postgresql://db1/ORDERS | false",
        "jdbc:postgresql://*/orders | jdbc:postgresql://db1/orders?ssl=true&user=x | true",
        "jdbc:h2:mem:* | jdbc:h2:mem:test | true",
        "jdbc:h2:mem:* | jdbc:h2:mem:test;DB_CLOSE_DELAY=-1 | true",
        "jdbc:h2:mem:* | jdbc:h2:file:/data/test | false",
        "jdbc:h2:mem:test | jdbc:h2:mem:test;MODE=PostgreSQL | true",
        "jdbc:h2:** | jdbc:h2:file:/data/test | true",
        "jdbc:h2:* | jdbc:h2:file:/data/test | false",
        "jdbc:sqlserver://db1;databaseName=orders* | jdbc:sqlserver://db1;databaseName=orders2 |"
            + " true",
        "jdbc:sqlserver://db1;databaseName=orders* | jdbc:sqlserver://db1;databaseName=hr | false",
        "jdbc:sqlserver://db1 | jdbc:sqlserver://db1;databaseName=hr | true",
        "jdbc:oracle:thin:@//*:1521/ORCL | jdbc:oracle:thin:@//db1:1521/ORCL | true",
        "jdbc:*://*/orders | jdbc:mariadb://h/orders | true",
        "jdbc:** | jdbc:anything:at/all | true",
        "jdbc:postgresql://a*b*c/x | jdbc:postgresql://aXbYc/x | true",
        "jdbc:postgresql://a*b*c/x | jdbc:postgresql://aXc/x | false",
      })
  void matchesJdbcUrls(String pattern, String url, boolean expected) {
    assertThat(JdbcUrlPattern.compile(pattern).matches(url)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "postgresql://h/db", "jdb:h2:mem:x", "JDBC:h2:mem:x", "jdbc:", "jdbc:h2:a b"})
  void rejectsPatternsThatAreNotJdbcUrls(String pattern) {
    assertThatThrownBy(() -> JdbcUrlPattern.compile(pattern)).isInstanceOf(PatternException.class);
  }

  @ParameterizedTest(name = "{0} goes wrong at {1}")
  @CsvSource(
      delimiter = '|',
      value = {"postgresql://h/db | -1", "jdbc: | 5", "jdbc:h2:mem:a b | 13"})
  void pointsAtWhereThePatternGoesWrong(String pattern, int offset) {
    assertThatThrownBy(() -> JdbcUrlPattern.compile(pattern))
        .isInstanceOfSatisfying(
            PatternException.class, e -> assertThat(e.offset()).isEqualTo(offset));
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdbc:**", "jdbc:h2:mem:x"})
  void nullUrlNeverMatches(String pattern) {
    assertThat(JdbcUrlPattern.compile(pattern).matches(null)).isFalse();
  }
}
