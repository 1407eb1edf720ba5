package io.levee.agent.servlet;

import io.levee.bootstrap.AsyncCompletion;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.ServletSupport;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import net.bytebuddy.asm.Advice;

/** {@code Servlet.service} and {@code Filter.doFilter} of jakarta.servlet 5 and 6. */
final class JakartaServletAdvice {
  private JakartaServletAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
  static Object enter(
      @Advice.Argument(0) ServletRequest request,
      @Advice.Argument(1) ServletResponse response,
      @Advice.Local("leveeToken") Object token,
      @Advice.Local("leveeStart") long start) {
    if (CallDepth.enter(Kind.SERVLET) != 0
        || !(request instanceof HttpServletRequest)
        || !(response instanceof HttpServletResponse)
        || request.getDispatcherType() != DispatcherType.REQUEST
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
      @Advice.Argument(0) ServletRequest request,
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
    if (request.isAsyncStarted()) {
      AsyncCompletion.attach(
          AsyncListener.class, request.getAsyncContext(), response, token, start);
      return;
    }
    int status = thrown != null && !http.isCommitted() ? 500 : http.getStatus();
    Levee.exit(token, start, status, thrown);
  }
}
