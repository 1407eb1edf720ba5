package io.levee.bootstrap;

import java.nio.charset.Charset;

/** The parts of the servlet advice that work on plain values, shared by javax and jakarta. */
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
   * string excluded by the servlet API), minus {@code ;name=value} path parameters such as {@code
   * ;jsessionid=}. Allocates only when the URI has path parameters.
   */
  public static String path(String requestUri) {
    if (requestUri == null) {
      return "/";
    }
    int semicolon = requestUri.indexOf(';');
    if (semicolon < 0) {
      return requestUri;
    }
    StringBuilder path = new StringBuilder(requestUri.length());
    int i = 0;
    while (semicolon >= 0) {
      path.append(requestUri, i, semicolon);
      int slash = requestUri.indexOf('/', semicolon);
      if (slash < 0) {
        return path.toString();
      }
      i = slash;
      semicolon = requestUri.indexOf(';', i);
    }
    return path.append(requestUri, i, requestUri.length()).toString();
  }

  /**
   * The body of a blocked response, written as bytes so the container's default charset does not
   * matter.
   */
  public static byte[] body(Blocked blocked) {
    return blocked.body.getBytes(UTF_8);
  }
}
