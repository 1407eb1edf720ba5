package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import javax.net.ssl.HttpsURLConnection;
import org.junit.jupiter.api.Test;

class LoadedTargetsTest {
  @Test
  void findsSubclassesAndImplementationsOfTheTargetedApisThroughAnyDepth() {
    assertThat(LoadedTargets.extendsApi(HttpsURLConnection.class)).isTrue();
    assertThat(LoadedTargets.extendsApi(Logging.class)).isTrue();
    assertThat(LoadedTargets.extendsApi(Audited.class)).isTrue();
  }

  @Test
  void leavesEverythingElseOut() {
    assertThat(LoadedTargets.extendsApi(String.class)).isFalse();
    assertThat(LoadedTargets.extendsApi(java.util.ArrayList.class)).isFalse();
  }

  private abstract static class Logging implements javax.servlet.Filter {}

  private interface AuditedStatement extends java.sql.PreparedStatement {}

  private abstract static class Audited implements AuditedStatement {}
}
