package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Hostile input for the classifier. The parser is called directly, below {@link
 * SqlClassifier#classify}'s safety net, so an exception here fails the test instead of being
 * hidden.
 */
class SqlClassifierFuzzTest {
  private static final String ALPHABET =
      "SELECT FROM WHERE JOIN INTO UPDATE WITH AS ( ) , ; . ' \" ` [ ] { } ? = * - / $ \\ \n call";
  private static final String[] PIECES = {
    "SELECT",
    "FROM",
    "JOIN",
    "INTO",
    "INSERT",
    "UPDATE",
    "DELETE",
    "MERGE",
    "WITH",
    "AS",
    "USING",
    "(",
    ")",
    "((",
    "))",
    ",",
    ";",
    ".",
    "..",
    "'",
    "''",
    "\"",
    "`",
    "[",
    "]",
    "{",
    "}",
    "?",
    "=",
    "/*",
    "*/",
    "--",
    "\n",
    "$$",
    "$t$",
    "E'",
    "\\",
    "call",
    "CREATE TABLE",
    "DROP",
    "UNION",
    "t",
    "s.t",
    "@x",
    "#tmp",
    "dual",
    " ",
    "  ",
    "ONLY",
    "LATERAL",
    "TABLE",
    "INDEX ON",
    "EXEC"
  };

  @Test
  void neverThrowsOnRandomText() {
    Random random = new Random(20240611L);
    for (int i = 0; i < 5000; i++) {
      StringBuilder sql = new StringBuilder();
      int length = random.nextInt(200);
      for (int j = 0; j < length; j++) {
        sql.append(
            random.nextInt(10) == 0
                ? (char) random.nextInt(0x3000)
                : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      parse(sql.toString());
    }
  }

  @Test
  void neverThrowsOnSqlShapedNoise() {
    Random random = new Random(7L);
    for (int i = 0; i < 5000; i++) {
      StringBuilder sql = new StringBuilder();
      int length = random.nextInt(60);
      for (int j = 0; j < length; j++) {
        sql.append(PIECES[random.nextInt(PIECES.length)]).append(random.nextBoolean() ? " " : "");
      }
      parse(sql.toString());
    }
  }

  @Test
  void neverThrowsOnMutatedCorpus() {
    Object[] corpus = SqlClassifierTest.corpus().map(a -> a.get()[0]).toArray();
    Random random = new Random(42L);
    for (int i = 0; i < 10000; i++) {
      StringBuilder sql = new StringBuilder((String) corpus[random.nextInt(corpus.length)]);
      int mutations = 1 + random.nextInt(6);
      for (int m = 0; m < mutations; m++) {
        mutate(sql, random);
      }
      parse(sql.toString());
    }
  }

  @Test
  void boundsTheWorkOnHugeInput() {
    StringBuilder open = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      open.append("((SELECT * FROM t, ");
    }
    String unterminated = "SELECT '" + open;
    String comments = "/*" + open;
    Assertions.assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          parse(open.toString());
          parse(unterminated);
          parse(comments);
        });
  }

  private static void mutate(StringBuilder sql, Random random) {
    int at = sql.length() == 0 ? 0 : random.nextInt(sql.length());
    switch (random.nextInt(4)) {
      case 0:
        sql.insert(at, PIECES[random.nextInt(PIECES.length)]);
        break;
      case 1:
        if (sql.length() > 0) {
          sql.deleteCharAt(at);
        }
        break;
      case 2:
        if (sql.length() > 0) {
          sql.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        break;
      default:
        sql.setLength(at);
    }
  }

  private static void parse(String sql) {
    SqlInfo info = new SqlParser(sql).parse();
    assertThat(info.operation()).isNotNull();
    assertThat(info.tables()).doesNotContainNull().doesNotContain("");
  }
}
