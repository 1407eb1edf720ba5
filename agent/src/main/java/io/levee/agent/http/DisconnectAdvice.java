package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.net.HttpURLConnection;
import net.bytebuddy.asm.Advice;

/** {@code disconnect()}: a connection the application gives up before its response releases its permit. */
final class DisconnectAdvice {
  private DisconnectAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static void enter(
      @Advice.This HttpURLConnection c, @Advice.FieldValue("responseCode") int responseCode) {
    HttpCalls.disconnect(c, responseCode);
  }
}
