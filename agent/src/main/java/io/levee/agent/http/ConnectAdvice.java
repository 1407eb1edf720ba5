package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.net.HttpURLConnection;
import net.bytebuddy.asm.Advice;

/** {@code connect()}: may decide; a blocked connection throws instead of connecting. */
final class ConnectAdvice {
  private ConnectAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  static void exit(
      @Advice.This HttpURLConnection c,
      @Advice.FieldValue("responseCode") int responseCode,
      @Advice.Enter Object skipped,
      @Advice.Thrown(readOnly = false) Throwable thrown) {
    thrown = HttpCalls.exit(c, responseCode, skipped, thrown, false);
  }
}
