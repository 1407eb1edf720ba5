package io.levee.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.instrument.Weaver;
import io.levee.agent.log.AgentLog;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of the JDK's classes the http integration weaves, on their real class files. */
class HttpUrlConnectionTypesTest {
  private final Weaver weaver =
      Weaver.forTests(
          List.of(new HttpUrlConnectionIntegration()),
          new AgentLog(new PrintStream(OutputStream.nullOutputStream()), AgentLog.Level.WARN));

  @Test
  void weavesTheJdkImplementationAndTheDelegateBehindHttps() throws Exception {
    assertThat(woven("sun.net.www.protocol.http.HttpURLConnection")).isTrue();
    // The delegate behind every https connection overrides connect() here, and inherits the rest.
    assertThat(woven("sun.net.www.protocol.https.AbstractDelegateHttpsURLConnection")).isTrue();
  }

  @Test
  void skipsTheHttpsDelegatorSoHttpsCallsAreNotCountedTwice() throws Exception {
    assertThat(woven("sun.net.www.protocol.https.HttpsURLConnectionImpl")).isFalse();
  }

  @Test
  void skipsTheAbstractApiClass() throws Exception {
    assertThat(woven("java.net.HttpURLConnection")).isFalse();
  }

  private boolean woven(String name) throws Exception {
    String path = name.replace('.', '/');
    byte[] bytes;
    try (InputStream in = ClassLoader.getSystemResourceAsStream(path + ".class")) {
      bytes = in.readAllBytes();
    }
    return weaver.transform(null, path, null, null, bytes) != null;
  }
}
