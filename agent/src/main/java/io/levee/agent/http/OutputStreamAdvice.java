package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import net.bytebuddy.asm.Advice;

/** {@code getOutputStream()}: may decide; a fallback takes the request body and drops it. */
final class OutputStreamAdvice {
  private OutputStreamAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  static void exit(
      @Advice.This HttpURLConnection c,
      @Advice.FieldValue("responseCode") int responseCode,
      @Advice.Enter Object skipped,
      @Advice.Return(readOnly = false) OutputStream returned,
      @Advice.Thrown(readOnly = false) Throwable thrown) {
    if (skipped != null) {
      returned = HttpCalls.requestBody(skipped);
    }
    thrown = HttpCalls.exit(c, responseCode, skipped, thrown, false);
  }
}
