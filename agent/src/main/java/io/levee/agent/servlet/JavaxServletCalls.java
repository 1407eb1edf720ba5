package io.levee.agent.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.RequestRefusals;
import io.levee.bootstrap.servlet.AsyncCompletion;
import io.levee.bootstrap.servlet.OwnAnswer;
import io.levee.bootstrap.servlet.ServletCalls;
import io.levee.bootstrap.servlet.ServletSupport;
import javax.servlet.AsyncListener;
import javax.servlet.DispatcherType;
import javax.servlet.ServletOutputStream;
import javax.servlet.ServletRequest;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code Servlet.service} and {@code Filter.doFilter} of javax.servlet 2.5 to 4, and, renamed by
 * {@link JakartaFlavour}, of jakarta.servlet 5 and 6: the one source of the servlet logic. Defined
 * by {@link ServletCallsFactory} in a loader beside the application's, so it uses only the servlet
 * API and the bridge.
 *
 * <p>Servlet 2.5 has no dispatcher type, no async and no {@code getStatus()}: without {@code
 * servlet3} the depth and the request attribute alone find the outermost dispatch, and the status
 * is unknown (-1) unless the call threw on an uncommitted response (500). The methods of 3.0 are
 * then never called, and the JVM resolves a class or method reference only when it first runs, so
 * the class defines and runs where they are missing.
 */
public final class JavaxServletCalls extends ServletCalls {
  private final boolean servlet3;

  public JavaxServletCalls(boolean servlet3) {
    this.servlet3 = servlet3;
  }

  @Override
  public Object enter(Object req, Object resp) throws Exception {
    Faults.at(Faults.SERVLET_ENTER);
    if (CallDepth.enter(Kind.SERVLET) != 0
        || !(req instanceof HttpServletRequest)
        || !(resp instanceof HttpServletResponse)) {
      return null;
    }
    ServletRequest request = (ServletRequest) req;
    if ((servlet3 && request.getDispatcherType() != DispatcherType.REQUEST)
        || request.getAttribute(ServletSupport.SEEN) != null) {
      return null;
    }
    request.setAttribute(ServletSupport.SEEN, Boolean.TRUE);
    OwnAnswer.clear();
    HttpServletRequest http = (HttpServletRequest) req;
    Object token =
        Levee.servletEnter(
            http.getMethod(),
            ServletSupport.path(
                http.getRequestURI(),
                http.getContextPath(),
                http.getServletPath(),
                http.getPathInfo()),
            request,
            keys());
    if (token instanceof Blocked) {
      // Answered here, before the original is skipped: if this fails, the request runs unprotected.
      answer((Blocked) token, (HttpServletResponse) resp);
    } else if (watchesRefusals(token)) {
      RequestRefusals.arm();
    }
    return token;
  }

  private static boolean watchesRefusals(Object token) {
    return token instanceof Permit && ((Permit) token).backpressure;
  }

  private static void answer(Blocked blocked, HttpServletResponse out) throws Exception {
    if (out.isCommitted()) {
      return;
    }
    byte[] body = ServletSupport.body(blocked);
    OwnAnswer.answered(blocked.status);
    out.resetBuffer();
    out.setStatus(blocked.status);
    if (blocked.retryAfterSeconds >= 0) {
      out.setHeader("Retry-After", String.valueOf(blocked.retryAfterSeconds));
    }
    out.setContentType(blocked.contentType);
    for (int i = 0; i + 1 < blocked.headers.length; i += 2) {
      out.setHeader(blocked.headers[i], blocked.headers[i + 1]);
    }
    ServletOutputStream stream;
    try {
      stream = out.getOutputStream();
    } catch (IllegalStateException writerTaken) {
      // A request that ran (backpressure) may have taken the writer before it failed.
      out.getWriter().write(blocked.body);
      return;
    }
    out.setContentLength(body.length);
    stream.write(body);
  }

  /**
   * Reports the request's outcome as the application ended it, even when backpressure answers in
   * its place: the resource's breaker and limits see what they would see without it.
   */
  @Override
  public boolean exit(Object req, Object resp, Object token, long start, Throwable thrown)
      throws Exception {
    if (CallDepth.exit(Kind.SERVLET) != 0 || token == null || token instanceof Blocked) {
      return false;
    }
    Blocked refused = watchesRefusals(token) ? RequestRefusals.disarm() : null;
    ServletRequest request = (ServletRequest) req;
    HttpServletResponse http = (HttpServletResponse) resp;
    int status;
    try {
      Faults.at(Faults.SERVLET_EXIT);
      if (servlet3 && request.isAsyncStarted()) {
        // The answer is written later, elsewhere: backpressure leaves an async request alone.
        AsyncCompletion.attach(AsyncListener.class, request.getAsyncContext(), http, token, start);
        return false;
      }
      if (thrown != null && !http.isCommitted()) {
        status = 500;
      } else {
        status = servlet3 ? http.getStatus() : -1;
      }
    } catch (Throwable t) {
      // The outcome cannot be read, but the permit must still go back.
      HookErrors.report(t);
      status = -1;
    }
    boolean answered =
        refused != null && status >= 500 && !isError(thrown) && answerInstead(token, refused, http);
    Levee.exit(token, start, status, thrown);
    return answered;
  }

  /**
   * Whether {@code thrown} is, or was caused by, an Error: the JVM's trouble, not the refused
   * call's, which the container must still see. Tomcat wraps an Error a servlet throws in a
   * ServletException before the filters around it see it, so the causes count too.
   */
  private static boolean isError(Throwable thrown) {
    Throwable t = thrown;
    for (int i = 0; t != null && i < 8; i++) {
      if (t instanceof Error) {
        return true;
      }
      t = t.getCause();
    }
    return false;
  }

  /**
   * Answers a request that failed after Levee refused one of its calls, as if blocked itself; false
   * when the application's answer stands (committed, monitor mode, or the answer failed).
   */
  private static boolean answerInstead(Object token, Blocked refused, HttpServletResponse http) {
    try {
      Blocked answer = http.isCommitted() ? null : Levee.backpressure(token, refused);
      if (answer == null) {
        return false;
      }
      answer(answer, http);
      return true;
    } catch (Throwable t) {
      HookErrors.report(t);
      return false;
    }
  }

  @Override
  public String remoteAddr(Object request) {
    return request instanceof ServletRequest ? ((ServletRequest) request).getRemoteAddr() : null;
  }

  @Override
  public String header(Object request, String name) {
    return request instanceof HttpServletRequest
        ? ((HttpServletRequest) request).getHeader(name)
        : null;
  }

  @Override
  public String queryString(Object request) {
    return request instanceof HttpServletRequest
        ? ((HttpServletRequest) request).getQueryString()
        : null;
  }
}
