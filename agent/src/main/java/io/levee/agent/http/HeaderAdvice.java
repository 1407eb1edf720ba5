package io.levee.agent.http;

import io.levee.bootstrap.http.HttpCalls;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import net.bytebuddy.asm.Advice;

/**
 * The response-reading methods a fallback answers itself, so that status line, headers and body agree
 * whichever the application asks first. For every other connection they run unchanged.
 */
final class HeaderAdvice {
  private HeaderAdvice() {}

  /** {@code getHeaderField(String)}, through which {@code getContentType} and the like also go. */
  static final class ByName {
    private ByName() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.Enter Object fallback,
        @Advice.Argument(0) String name,
        @Advice.Return(readOnly = false) String returned) {
      if (fallback != null) {
        returned = HttpCalls.headerField(fallback, name);
      }
    }
  }

  /** {@code getHeaderField(int)}; index 0 is the status line {@code getResponseCode} parses. */
  static final class ByIndex {
    private ByIndex() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.Enter Object fallback,
        @Advice.Argument(0) int n,
        @Advice.Return(readOnly = false) String returned) {
      if (fallback != null) {
        returned = HttpCalls.headerField(fallback, n);
      }
    }
  }

  /** {@code getHeaderFieldKey(int)}. */
  static final class KeyByIndex {
    private KeyByIndex() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.Enter Object fallback,
        @Advice.Argument(0) int n,
        @Advice.Return(readOnly = false) String returned) {
      if (fallback != null) {
        returned = HttpCalls.headerFieldKey(fallback, n);
      }
    }
  }

  /** {@code getHeaderFields()}. */
  static final class All {
    private All() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.Enter Object fallback,
        @Advice.Return(readOnly = false) Map<String, List<String>> returned) {
      if (fallback != null) {
        returned = HttpCalls.headerFields(fallback);
      }
    }
  }

  /** {@code getErrorStream()}, which never connects, so it never decides either. */
  static final class ErrorStream {
    private ErrorStream() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    static Object enter(@Advice.This HttpURLConnection c) {
      return HttpCalls.decidedFallback(c);
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(
        @Advice.Enter Object fallback, @Advice.Return(readOnly = false) InputStream returned) {
      if (fallback != null) {
        returned = HttpCalls.errorStream(fallback);
      }
    }
  }
}
