package io.levee.bootstrap.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Faults;
import java.nio.charset.Charset;

/** The parts of the servlet hooks that work on plain values, shared by javax and jakarta. */
public final class ServletSupport {
  /**
   * Request attribute marking a request as decided, so a forward, include, error or async dispatch
   * of the same request does not count again (even on another thread, where the depth is 0).
   */
  public static final String SEEN = "io.levee.decided";

  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private ServletSupport() {}

  /**
   * The path rules match: the request URI as the client sent it (context path included, query
   * string excluded by the servlet API) when it is plain, which is the common case and allocates
   * nothing. A URI with percent-escapes, {@code ;name=value} path parameters, dot segments or empty
   * segments is rebuilt from the container's decoded and normalised parts instead, because {@code
   * /shop/%63heckout} or {@code /shop/./checkout} must not slip past a rule on {@code
   * /shop/checkout}.
   */
  public static String path(
      String requestUri, String contextPath, String servletPath, String pathInfo) {
    Faults.at(Faults.SERVLET_PATH);
    if (requestUri != null && isPlain(requestUri)) {
      return requestUri;
    }
    StringBuilder path = new StringBuilder();
    if (contextPath != null) {
      path.append(contextPath);
    }
    if (servletPath != null) {
      path.append(servletPath);
    }
    if (pathInfo != null) {
      path.append(pathInfo);
    }
    return path.length() == 0 ? "/" : path.toString();
  }

  static boolean isPlain(String uri) {
    if (uri.isEmpty() || uri.charAt(0) != '/') {
      return false;
    }
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '%' || c == ';' || c == '\\') {
        return false;
      }
      if (c == '/' && i + 1 < uri.length()) {
        char next = uri.charAt(i + 1);
        if (next == '/' || next == '.') {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The body of a blocked response, written as bytes so the container's default charset does not
   * matter.
   */
  public static byte[] body(Blocked blocked) {
    return blocked.body.getBytes(UTF_8);
  }
}
