package io.levee.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArgumentsTest {
  @Test
  void attachTakesAPidAndBothOptionsInEitherForm() throws Exception {
    Arguments a =
        Arguments.parse(
            new String[] {"attach", "4242", "--http=127.0.0.1:9464", "--rules", "r.yaml"});

    assertThat(a.command).isEqualTo("attach");
    assertThat(a.pid).isEqualTo("4242");
    assertThat(a.rules).isEqualTo("r.yaml");
    assertThat(a.http).isEqualTo("127.0.0.1:9464");
    assertThat(a.force).isFalse();
  }

  @Test
  void onlyAttachTakesForceAnywhereAfterThePid() throws Exception {
    assertThat(Arguments.parse(new String[] {"attach", "1", "--force", "--rules", "r.yaml"}).force)
        .isTrue();
    Arguments last = Arguments.parse(new String[] {"attach", "1", "--rules", "r.yaml", "--force"});
    assertThat(last.force).isTrue();
    assertThat(last.rules).isEqualTo("r.yaml");
    assertUsageError(
        new String[] {"detach", "1", "--force"}, "unknown option '--force' for detach");
  }

  @Test
  void reloadTakesRulesButNoHttp() throws Exception {
    assertThat(Arguments.parse(new String[] {"reload", "7", "--rules", "x.yaml"}).rules)
        .isEqualTo("x.yaml");
    assertThat(Arguments.parse(new String[] {"reload", "7"}).rules).isNull();
    assertUsageError(
        new String[] {"reload", "7", "--http", "h:1"}, "unknown option '--http' for reload");
  }

  @Test
  void statusAndDetachTakeOnlyAPid() throws Exception {
    assertThat(Arguments.parse(new String[] {"status", "12"}).pid).isEqualTo("12");
    assertThat(Arguments.parse(new String[] {"detach", "12"}).pid).isEqualTo("12");
    assertUsageError(
        new String[] {"status", "12", "--rules", "r.yaml"}, "unknown option '--rules' for status");
    assertUsageError(new String[] {"detach", "12", "extra"}, "unknown option 'extra' for detach");
  }

  @Test
  void aPidIsDigitsOnly() {
    assertUsageError(new String[] {"status", "abc"}, "'abc' is not a process id (digits only)");
    assertUsageError(new String[] {"status", "-1"}, "status needs the PID of a JVM (see: list)");
    assertUsageError(new String[] {"detach"}, "detach needs the PID of a JVM (see: list)");
  }

  @Test
  void anOptionNeedsItsValueAndComesOnce() {
    assertUsageError(new String[] {"attach", "1", "--rules"}, "--rules needs a FILE");
    assertUsageError(
        new String[] {"attach", "1", "--rules", "--http", "h:1"}, "--rules needs a FILE");
    assertUsageError(
        new String[] {"attach", "1", "--rules", "a", "--rules", "b"}, "--rules given twice");
  }

  @Test
  void httpNeedsHostAndAPortInRange() {
    String message = "--http needs HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:9464";
    assertUsageError(new String[] {"attach", "1", "--http", "9464"}, message);
    assertUsageError(new String[] {"attach", "1", "--http", ":9464"}, message);
    assertUsageError(new String[] {"attach", "1", "--http", "localhost:0"}, message);
    assertUsageError(new String[] {"attach", "1", "--http", "localhost:65536"}, message);
    assertUsageError(new String[] {"attach", "1", "--http", "localhost:http"}, message);
  }

  @Test
  void listAndValidateTakeExactlyTheirArguments() throws Exception {
    assertThat(Arguments.parse(new String[] {"list"}).command).isEqualTo("list");
    assertThat(Arguments.parse(new String[] {"validate", "f.yaml"}).file).isEqualTo("f.yaml");
    assertUsageError(new String[] {"list", "1"}, "list takes no arguments");
    assertUsageError(new String[] {"validate"}, "validate needs exactly one FILE");
    assertUsageError(new String[] {"validate", "a", "b"}, "validate needs exactly one FILE");
  }

  @Test
  void helpAnywhereWins() throws Exception {
    assertThat(Arguments.parse(new String[] {"attach", "--help"}).command).isEqualTo("help");
    assertThat(Arguments.parse(new String[] {"-h"}).command).isEqualTo("help");
  }

  @Test
  void noOrUnknownCommandIsAUsageError() {
    assertUsageError(new String[] {}, "no command given");
    assertUsageError(new String[] {"frobnicate"}, "unknown command 'frobnicate'");
  }

  private static void assertUsageError(String[] args, String message) {
    assertThatThrownBy(() -> Arguments.parse(args))
        .isInstanceOf(Arguments.UsageError.class)
        .hasMessage(message);
  }
}
