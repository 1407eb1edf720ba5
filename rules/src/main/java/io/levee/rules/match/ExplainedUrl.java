package io.levee.rules.match;

import java.util.Locale;

/**
 * An absolute http(s) URL taken apart just enough for {@link Explain} to try it again with another
 * port or scheme.
 */
final class ExplainedUrl {
  final String scheme;
  final String host;
  final int port;
  final boolean explicitPort;

  /** Everything after the scheme, from {@code ://}. */
  final String rest;

  final String path;

  private ExplainedUrl(String scheme, String host, int port, boolean explicitPort, String path) {
    this.scheme = scheme;
    this.host = host;
    this.port = port;
    this.explicitPort = explicitPort;
    this.path = path;
    this.rest = "://" + host + (explicitPort ? ":" + port : "") + path;
  }

  static ExplainedUrl parse(String url) {
    int colon = url.indexOf("://");
    if (colon <= 0) {
      return null;
    }
    String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      return null;
    }
    String after = url.substring(colon + 3);
    int slash = after.indexOf('/');
    String authority = slash < 0 ? after : after.substring(0, slash);
    String path = slash < 0 ? "" : after.substring(slash);
    int at = authority.lastIndexOf('@');
    authority = authority.substring(at + 1);
    int portColon = authority.lastIndexOf(':');
    if (portColon > authority.lastIndexOf(']') && portColon >= 0) {
      try {
        int port = Integer.parseInt(authority.substring(portColon + 1));
        return new ExplainedUrl(scheme, authority.substring(0, portColon), port, true, path);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return new ExplainedUrl(scheme, authority, -1, false, path);
  }

  int defaultPortNumber() {
    return "https".equals(scheme) ? 443 : 80;
  }

  boolean defaultPort() {
    return port == defaultPortNumber();
  }

  /** The same URL with another port, or none with -1. */
  String withPort(int other) {
    return scheme + "://" + host + (other < 0 ? "" : ":" + other) + path;
  }
}
