package io.levee.rules.match;

/**
 * An outbound URL pattern, {@code scheme://host[:port]/path}, such as {@code
 * https://pay.example.com/v1/**} or {@code *://**.internal:*}{@code /**}.
 *
 * <ul>
 *   <li>Scheme: a name or {@code *} for any; case-insensitive.
 *   <li>Host: labels separated by dots, case-insensitive; {@code *} is one label, {@code **} any
 *       number of labels including none ({@code **.example.com} matches {@code example.com} and
 *       {@code a.b.example.com}), and {@code *} inside a label is a glob ({@code api-*}). A host
 *       that is only {@code *} or {@code **} matches every host. A URL's user info and a trailing
 *       dot are ignored.
 *   <li>Port: {@code *} any; a number matches the URL's explicit port or its scheme's default (80
 *       for http and ws, 443 for https and wss, 21 for ftp); no port matches only a URL on its
 *       scheme's default port, so {@code https://h/**} matches {@code https://h/x} and {@code
 *       https://h:443/x} but not {@code https://h:8443/x}.
 *   <li>Path: {@link PathPattern} rules, case-sensitive; no path means {@code /**}. The URL's query
 *       and fragment are ignored.
 * </ul>
 *
 * <p>Matching reads the URL in place: no parsing into objects, no allocation.
 */
public final class UrlPattern {
  private static final int ANY_PORT = -1;
  private static final int DEFAULT_PORT = -2;

  private final String source;
  private final String scheme;
  private final HostPattern host;
  private final int port;
  private final PathPattern path;

  private UrlPattern(String source, String scheme, HostPattern host, int port, PathPattern path) {
    this.source = source;
    this.scheme = scheme;
    this.host = host;
    this.port = port;
    this.path = path;
  }

  /**
   * @throws IllegalArgumentException with a message fit for the user when the pattern is invalid
   */
  public static UrlPattern compile(String pattern) {
    int sep = pattern == null ? -1 : pattern.indexOf("://");
    if (sep <= 0) {
      throw new IllegalArgumentException(
          "a URL pattern must look like scheme://host/path: " + pattern);
    }
    if (pattern.indexOf('?') >= 0 || pattern.indexOf('#') >= 0) {
      throw new IllegalArgumentException(
          "a URL pattern cannot have a query or fragment (they are ignored): " + pattern);
    }
    String scheme = pattern.substring(0, sep).toLowerCase(java.util.Locale.ROOT);
    int authStart = sep + 3;
    int slash = pattern.indexOf('/', authStart);
    int authEnd = slash < 0 ? pattern.length() : slash;
    String authority = pattern.substring(authStart, authEnd);
    int colon =
        authority.startsWith("[")
            ? authority.indexOf(':', authority.indexOf(']'))
            : authority.lastIndexOf(':');
    String hostText = colon < 0 ? authority : authority.substring(0, colon);
    int port = colon < 0 ? DEFAULT_PORT : parsePort(authority.substring(colon + 1), pattern);
    if (hostText.isEmpty()) {
      throw new IllegalArgumentException("a URL pattern needs a host (or *): " + pattern);
    }
    String pathText = slash < 0 ? "/**" : pattern.substring(slash);
    return new UrlPattern(
        pattern,
        scheme,
        HostPattern.compile(hostText, pattern),
        port,
        PathPattern.compile(pathText));
  }

  private static int parsePort(String text, String pattern) {
    if (text.equals("*")) {
      return ANY_PORT;
    }
    try {
      int port = Integer.parseInt(text);
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("a URL pattern's port must be a number or *: " + pattern);
  }

  /** Whether the absolute URL matches; null or a URL without {@code ://} never matches. */
  public boolean matches(String url) {
    if (url == null) {
      return false;
    }
    int len = url.length();
    int schemeEnd = url.indexOf("://");
    if (schemeEnd <= 0) {
      return false;
    }
    if (!scheme.equals("*") && !Glob.matches(scheme, url, 0, schemeEnd, true)) {
      return false;
    }
    int authStart = schemeEnd + 3;
    int authEnd = len;
    for (int i = authStart; i < len; i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') {
        authEnd = i;
        break;
      }
    }
    int hostStart = authStart;
    for (int i = authEnd - 1; i >= authStart; i--) {
      if (url.charAt(i) == '@') {
        hostStart = i + 1;
        break;
      }
    }
    int hostEnd = hostEnd(url, hostStart, authEnd);
    if (!portMatches(url, schemeEnd, hostEnd, authEnd)) {
      return false;
    }
    if (hostEnd > hostStart && url.charAt(hostEnd - 1) == '.') {
      hostEnd--;
    }
    if (!host.matches(url, hostStart, hostEnd)) {
      return false;
    }
    int pathEnd = len;
    for (int i = authEnd; i < len; i++) {
      char c = url.charAt(i);
      if (c == '?' || c == '#') {
        pathEnd = i;
        break;
      }
    }
    return path.matches(url, authEnd, pathEnd);
  }

  private static int hostEnd(String url, int hostStart, int authEnd) {
    int from = hostStart;
    if (hostStart < authEnd && url.charAt(hostStart) == '[') {
      int close = url.indexOf(']', hostStart);
      from = close < 0 || close >= authEnd ? authEnd : close;
    }
    for (int i = from; i < authEnd; i++) {
      if (url.charAt(i) == ':') {
        return i;
      }
    }
    return authEnd;
  }

  private boolean portMatches(String url, int schemeEnd, int hostEnd, int authEnd) {
    if (port == ANY_PORT) {
      return true;
    }
    int defaultPort = defaultPort(url, schemeEnd);
    int actual = defaultPort;
    if (hostEnd + 1 < authEnd) {
      actual = 0;
      for (int i = hostEnd + 1; i < authEnd; i++) {
        char c = url.charAt(i);
        if (c < '0' || c > '9' || actual > 65535) {
          return false;
        }
        actual = actual * 10 + (c - '0');
      }
    }
    return port == DEFAULT_PORT ? actual == defaultPort : actual == port;
  }

  private static int defaultPort(String url, int schemeEnd) {
    if (Glob.equalsRegion("http", url, 0, schemeEnd, true)
        || Glob.equalsRegion("ws", url, 0, schemeEnd, true)) {
      return 80;
    }
    if (Glob.equalsRegion("https", url, 0, schemeEnd, true)
        || Glob.equalsRegion("wss", url, 0, schemeEnd, true)) {
      return 443;
    }
    return Glob.equalsRegion("ftp", url, 0, schemeEnd, true) ? 21 : -1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UrlPattern && ((UrlPattern) o).source.equals(source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  @Override
  public String toString() {
    return source;
  }
}
