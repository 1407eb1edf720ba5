package io.levee.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

class HttpUrlConnectionTypesTest {
  @Test
  void matchesTheJdkImplementationAndTheDelegateBehindHttps() throws Exception {
    assertThat(matches("sun.net.www.protocol.http.HttpURLConnection")).isTrue();
    assertThat(matches("sun.net.www.protocol.https.DelegateHttpsURLConnection")).isTrue();
  }

  @Test
  void skipsTheHttpsDelegatorSoHttpsCallsAreNotCountedTwice() throws Exception {
    assertThat(matches("sun.net.www.protocol.https.HttpsURLConnectionImpl")).isFalse();
  }

  @Test
  void skipsTheAbstractApiClass() throws Exception {
    assertThat(matches("java.net.HttpURLConnection")).isFalse();
  }

  private static boolean matches(String name) throws ClassNotFoundException {
    Class<?> type = Class.forName(name, false, null);
    return HttpUrlConnectionInstrumentation.TYPES.matches(TypeDescription.ForLoadedType.of(type));
  }
}
