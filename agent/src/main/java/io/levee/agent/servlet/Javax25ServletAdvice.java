package io.levee.agent.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.ServletSupport;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import net.bytebuddy.asm.Advice;

/**
 * javax.servlet 2.5, which has no dispatcher type, no async and no {@code getStatus()}: the depth
 * and the request attribute alone find the outermost dispatch, and the status is unknown (-1)
 * unless the call threw on an uncommitted response (500).
 */
final class Javax25ServletAdvice {
  private Javax25ServletAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
  static Object enter(
      @Advice.Argument(0) ServletRequest request,
      @Advice.Argument(1) ServletResponse response,
      @Advice.Local("leveeToken") Object token,
      @Advice.Local("leveeStart") long start) {
    if (CallDepth.enter(Kind.SERVLET) != 0
        || !(request instanceof HttpServletRequest)
        || !(response instanceof HttpServletResponse)
        || request.getAttribute(ServletSupport.SEEN) != null) {
      return null;
    }
    request.setAttribute(ServletSupport.SEEN, Boolean.TRUE);
    HttpServletRequest http = (HttpServletRequest) request;
    token =
        Levee.servletEnter(
            http.getMethod(),
            ServletSupport.path(
                http.getRequestURI(), http.getContextPath(), http.getServletPath(), http.getPathInfo()),
            request);
    start = Levee.start(token);
    return token;
  }

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  static void exit(
      @Advice.Argument(1) ServletResponse response,
      @Advice.Local("leveeToken") Object token,
      @Advice.Local("leveeStart") long start,
      @Advice.Thrown Throwable thrown)
      throws Exception {
    if (CallDepth.exit(Kind.SERVLET) != 0 || token == null) {
      return;
    }
    HttpServletResponse http = (HttpServletResponse) response;
    if (token instanceof Blocked) {
      Blocked blocked = (Blocked) token;
      if (!http.isCommitted()) {
        http.resetBuffer();
        http.setStatus(blocked.status);
        if (blocked.retryAfterSeconds >= 0) {
          http.setHeader("Retry-After", String.valueOf(blocked.retryAfterSeconds));
        }
        http.setContentType(blocked.contentType);
        for (int i = 0; i + 1 < blocked.headers.length; i += 2) {
          http.setHeader(blocked.headers[i], blocked.headers[i + 1]);
        }
        byte[] body = ServletSupport.body(blocked);
        http.setContentLength(body.length);
        http.getOutputStream().write(body);
      }
      return;
    }
    Levee.exit(token, start, thrown != null && !http.isCommitted() ? 500 : -1, thrown);
  }
}
