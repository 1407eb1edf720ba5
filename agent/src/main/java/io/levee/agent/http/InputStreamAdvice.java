package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.io.InputStream;
import java.net.HttpURLConnection;
import net.bytebuddy.asm.Advice;

/** {@code getInputStream()}: may decide, and usually ends the call with the response code. */
final class InputStreamAdvice {
  private InputStreamAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  static void exit(
      @Advice.This HttpURLConnection c,
      @Advice.FieldValue("responseCode") int responseCode,
      @Advice.Enter Object skipped,
      @Advice.Return(readOnly = false) InputStream returned,
      @Advice.Thrown(readOnly = false) Throwable thrown) {
    if (skipped != null) {
      returned = HttpCalls.responseBody(skipped);
    }
    thrown = HttpCalls.exit(c, responseCode, skipped, thrown, true);
  }
}
