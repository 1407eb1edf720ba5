package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.FailureSpec;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {
  private static final List<String> NONE = Collections.emptyList();

  @Test
  void defaultsFailServerErrorsAndAnyException() {
    FailureClassifier c = new FailureClassifier(FailureSpec.DEFAULT);
    assertThat(c.classify(200, null)).isEqualTo(Outcome.SUCCESS);
    assertThat(c.classify(404, null)).isEqualTo(Outcome.SUCCESS);
    assertThat(c.classify(500, null)).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(599, null)).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(-1, null)).isEqualTo(Outcome.SUCCESS);
    assertThat(c.classify(-1, new IllegalStateException())).isEqualTo(Outcome.FAILURE);
  }

  @Test
  void matchesExactStatusesAndDigitPatterns() {
    FailureClassifier c = classifier(Arrays.asList("503", "42x"), NONE, NONE, NONE);
    assertThat(c.classify(503, null)).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(500, null)).isEqualTo(Outcome.SUCCESS);
    assertThat(c.classify(429, null)).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(430, null)).isEqualTo(Outcome.SUCCESS);
  }

  @Test
  void matchesExceptionsByClassOrSuperclassAndCountsOthersAsSuccess() {
    FailureClassifier c = classifier(NONE, Arrays.asList("java.io.IOException"), NONE, NONE);
    assertThat(c.classify(-1, new SocketTimeoutException())).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(-1, new IOException())).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(-1, new IllegalStateException())).isEqualTo(Outcome.SUCCESS);
  }

  @Test
  void ignoresACallAbandonedBeforeItsOutcome() {
    FailureClassifier c = new FailureClassifier(FailureSpec.DEFAULT);
    assertThat(c.classify(io.levee.bootstrap.Dispatcher.STATUS_ABANDONED, null))
        .isEqualTo(Outcome.IGNORED);
  }

  @Test
  void matchesExceptionsBySimpleNameToo() {
    FailureClassifier c = classifier(NONE, Arrays.asList("IOException"), NONE, NONE);
    assertThat(c.classify(-1, new SocketTimeoutException())).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(-1, new IllegalStateException())).isEqualTo(Outcome.SUCCESS);
    FailureClassifier nested = classifier(NONE, Arrays.asList("Entry"), NONE, NONE);
    assertThat(nested.classify(-1, new Nested.Entry())).isEqualTo(Outcome.FAILURE);
  }

  static final class Nested {
    static final class Entry extends RuntimeException {}
  }

  @Test
  void ignoredExceptionsWinAndAreRecordedNowhere() {
    FailureClassifier c =
        classifier(
            Arrays.asList("5xx"), NONE, Arrays.asList("java.io.FileNotFoundException"), NONE);
    assertThat(c.classify(500, new FileNotFoundException())).isEqualTo(Outcome.IGNORED);
    assertThat(c.classify(500, new IOException())).isEqualTo(Outcome.FAILURE);
  }

  @Test
  void ignoresSqlStatesByPatternAlsoWhenWrapped() {
    FailureClassifier c = classifier(NONE, NONE, NONE, Arrays.asList("23*", "40001"));
    assertThat(c.classify(-1, new SQLException("dup", "23505"))).isEqualTo(Outcome.IGNORED);
    assertThat(c.classify(-1, new SQLException("retry", "40001"))).isEqualTo(Outcome.IGNORED);
    assertThat(c.classify(-1, new RuntimeException(new SQLException("dup", "23000"))))
        .isEqualTo(Outcome.IGNORED);
    assertThat(c.classify(-1, new SQLException("down", "08006"))).isEqualTo(Outcome.FAILURE);
    assertThat(c.classify(-1, new SQLException("no state"))).isEqualTo(Outcome.FAILURE);
  }

  private static FailureClassifier classifier(
      List<String> statuses, List<String> exceptions, List<String> ignore, List<String> states) {
    return new FailureClassifier(new FailureSpec(statuses, exceptions, ignore, states));
  }
}
