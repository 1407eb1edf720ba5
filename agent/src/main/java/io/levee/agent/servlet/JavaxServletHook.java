package io.levee.agent.servlet;

import io.levee.bootstrap.AdviceErrors;
import io.levee.bootstrap.AsyncCompletion;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.ServletHook;
import io.levee.bootstrap.ServletSupport;
import javax.servlet.AsyncListener;
import javax.servlet.DispatcherType;
import javax.servlet.ServletRequest;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code Servlet.service} and {@code Filter.doFilter} of javax.servlet 3.0 to 4. Defined by {@link
 * HookFactory} in a loader beside the application's, so it uses only the servlet API and the bridge.
 */
public final class JavaxServletHook extends ServletHook {
  @Override
  public Object enter(Object req, Object resp) throws Exception {
    Faults.at(Faults.SERVLET_ENTER);
    if (CallDepth.enter(Kind.SERVLET) != 0
        || !(req instanceof HttpServletRequest)
        || !(resp instanceof HttpServletResponse)) {
      return null;
    }
    ServletRequest request = (ServletRequest) req;
    if (request.getDispatcherType() != DispatcherType.REQUEST
        || request.getAttribute(ServletSupport.SEEN) != null) {
      return null;
    }
    request.setAttribute(ServletSupport.SEEN, Boolean.TRUE);
    HttpServletRequest http = (HttpServletRequest) req;
    Object token =
        Levee.servletEnter(
            http.getMethod(),
            ServletSupport.path(
                http.getRequestURI(), http.getContextPath(), http.getServletPath(), http.getPathInfo()),
            request);
    if (token instanceof Blocked) {
      // Answered here, before the original is skipped: if this fails, the request runs unprotected.
      Blocked blocked = (Blocked) token;
      byte[] body = ServletSupport.body(blocked);
      HttpServletResponse out = (HttpServletResponse) resp;
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

  @Override
  public void exit(Object req, Object resp, Object token, long start, Throwable thrown)
      throws Exception {
    if (CallDepth.exit(Kind.SERVLET) != 0 || token == null || token instanceof Blocked) {
      return;
    }
    ServletRequest request = (ServletRequest) req;
    HttpServletResponse http = (HttpServletResponse) resp;
    int status;
    try {
      Faults.at(Faults.SERVLET_EXIT);
      if (request.isAsyncStarted()) {
        AsyncCompletion.attach(AsyncListener.class, request.getAsyncContext(), http, token, start);
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
