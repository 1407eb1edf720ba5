package io.levee.agent.servlet;

import io.levee.bootstrap.AsyncCompletion;
import io.levee.bootstrap.AdviceErrors;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.ServletSupport;
import javax.servlet.AsyncListener;
import javax.servlet.DispatcherType;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import net.bytebuddy.asm.Advice;

/** {@code Servlet.service} and {@code Filter.doFilter} of javax.servlet 3.0 to 4. */
final class JavaxServletAdvice {
  private JavaxServletAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
  static Object enter(
      @Advice.Argument(0) ServletRequest request,
      @Advice.Argument(1) ServletResponse response,
      @Advice.Local("leveeToken") Object token,
      @Advice.Local("leveeStart") long start)
      throws Exception {
    Faults.at(Faults.SERVLET_ENTER);
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
    if (token instanceof Blocked) {
      // Answered here, before the original is skipped: if this fails, the request runs unprotected.
      Blocked blocked = (Blocked) token;
      byte[] body = ServletSupport.body(blocked);
      HttpServletResponse out = (HttpServletResponse) response;
      if (!out.isCommitted()) {
        out.resetBuffer();
        out.setStatus(blocked.status);
        if (blocked.retryAfterSeconds >= 0) {
          out.setHeader("Retry-After", String.valueOf(blocked.retryAfterSeconds));
        }
        out.setContentType(blocked.contentType);
        for (int i = 0; i + 1 < blocked.headers.length; i += 2) {
          out.setHeader(blocked.headers[i], blocked.headers[i + 1]);
        }
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
      }
    }
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
    if (CallDepth.exit(Kind.SERVLET) != 0 || token == null || token instanceof Blocked) {
      return;
    }
    HttpServletResponse http = (HttpServletResponse) response;
    int status;
    try {
      Faults.at(Faults.SERVLET_EXIT);
      if (request.isAsyncStarted()) {
        AsyncCompletion.attach(
            AsyncListener.class, request.getAsyncContext(), response, token, start);
        return;
      }
      status = thrown != null && !http.isCommitted() ? 500 : http.getStatus();
    } catch (Throwable t) {
      // The outcome cannot be read, but the permit must still go back.
      AdviceErrors.report(t);
      status = -1;
    }
    Levee.exit(token, start, status, thrown);
  }
}
