package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.net.HttpURLConnection;
import net.bytebuddy.asm.Advice;

/**
 * The two enter advices every intercepted method shares; each method adds only its own exit advice
 * (ByteBuddy combines an enter class and an exit class per method).
 */
final class EnterAdvice {
  private EnterAdvice() {}

  /** {@code connect}, {@code getOutputStream}, {@code getInputStream}: the first one decides. */
  static final class Decide {
    private Decide() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    static Object enter(@Advice.This HttpURLConnection c) {
      return HttpCalls.enter(c);
    }
  }

  /** The response-reading methods: a fallback answers them itself, skipping the original. */
  static final class Fallback {
    private Fallback() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    static Object enter(@Advice.This HttpURLConnection c) {
      return HttpCalls.fallback(c);
    }
  }
}
