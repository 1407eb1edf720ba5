package io.levee.rules.match;

/**
 * An outbound URL pattern, {@code scheme://host[:port]/path}, such as {@code
 * https://pay.example.com/v1/**} or {@code *://**.internal:*}{@code /**}.
 *
 * <ul>
 *   <li>Scheme: {@code http}, {@code https} or {@code *} for any, written in lower case; a URL's
 *       scheme is compared case-insensitively.
 *   <li>Host: labels separated by dots, case-insensitive; {@code *} is one label, {@code **} any
 *       number of labels including none ({@code **.example.com} matches {@code example.com} and
 *       {@code a.b.example.com}), and {@code *} inside a label is a glob ({@code api-*}). A host
 *       that is only {@code *} or {@code **} matches every host. A URL's user info and a trailing
 *       dot are ignored. A pattern's host has no {@code :}, {@code @} or {@code \}, so an IPv6 host
 *       is matched only by {@code *}.
 *   <li>Port: {@code *} any; a number matches the URL's explicit port or its scheme's default (80
 *       for http and ws, 443 for https and wss, 21 for ftp); no port matches only a URL on its
 *       scheme's default port, so {@code https://h/**} matches {@code https://h/x} and {@code
 *       https://h:443/x} but not {@code https://h:8443/x}.
 *   <li>Path: required ({@code /**} for every path); {@link PathPattern} rules, case-sensitive,
 *       with any variable name. The URL's query and fragment are ignored, and a pattern has
 *       neither.
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
   * @throws PatternException when the pattern is invalid
   */
  public static UrlPattern compile(String pattern) {
    int sep = pattern == null ? -1 : pattern.indexOf("://");
    if (sep <= 0) {
      throw new PatternException(
          String.valueOf(pattern),
          PatternException.WHOLE,
          "expected a URL pattern scheme://host[:port]/path",
          "like https://pay.example.com/v1/** (*:// for any scheme)");
    }
    String scheme = pattern.substring(0, sep);
    if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("*")) {
      throw new PatternException(
          pattern,
          0,
          "the scheme of a URL pattern must be http, https or * for any",
          "like https://pay.example.com/v1/**");
    }
    int len = pattern.length();
    for (int i = 0; i < len; i++) {
      char c = pattern.charAt(i);
      if (PatternException.isBlank(c)) {
        throw new PatternException(
            pattern,
            i,
            "a URL pattern cannot contain " + PatternException.describe(c),
            "like https://pay.example.com/v1/** (a space in a URL is written %20)");
      }
      if (c == '?' || c == '#') {
        throw new PatternException(
            pattern,
            i,
            "a URL pattern cannot have a query or fragment",
            "as both are ignored in matching");
      }
    }
    int authStart = sep + 3;
    int slash = pattern.indexOf('/', authStart);
    if (slash < 0) {
      throw new PatternException(
          pattern,
          len,
          "a URL pattern needs a path after the host",
          "like https://pay.example.com/** for every path");
    }
    int colon = pattern.indexOf(':', authStart);
    int hostEnd = colon >= 0 && colon < slash ? colon : slash;
    if (hostEnd == authStart) {
      throw new PatternException(
          pattern,
          authStart,
          "a URL pattern needs a host",
          "like https://pay.example.com/** (* for any host)");
    }
    int port = hostEnd == slash ? DEFAULT_PORT : parsePort(pattern, authStart, hostEnd, slash);
    return new UrlPattern(
        pattern,
        scheme,
        HostPattern.compile(pattern, authStart, hostEnd),
        port,
        PathPattern.parse(pattern, slash, false));
  }

  /** The port pattern[colon + 1, slash): {@code *} or a number up to 65535. */
  private static int parsePort(String pattern, int authStart, int colon, int slash) {
    int from = colon + 1;
    if (slash - from == 1 && pattern.charAt(from) == '*') {
      return ANY_PORT;
    }
    int port = 0;
    for (int i = from; i < slash && port <= 65535; i++) {
      char c = pattern.charAt(i);
      port = c >= '0' && c <= '9' ? port * 10 + (c - '0') : Integer.MAX_VALUE;
    }
    if (slash > from && slash - from <= 5 && port <= 65535) {
      return port;
    }
    if (pattern.charAt(authStart) == '[' && pattern.lastIndexOf(']', colon) < authStart) {
      // "[::1]": the colon that seemed to start the port is inside the brackets
      throw new PatternException(
          pattern, authStart, "a URL pattern cannot name an IPv6 host", "use * as the host");
    }
    throw new PatternException(
        pattern,
        from,
        "the port of a URL pattern must be a number up to 65535 or *",
        "like https://pay.example.com:8443/**");
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
