package io.levee.rules.match;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Mode;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which resource a call would hit, said for a person, and when none, why each resource of its kind
 * missed: the commonest mistake with a rules file is a rule that matches nothing, and it is silent.
 * The verdict is {@link ResourceMatcher}'s own (first match in file order); the reasons try the
 * call again with one thing changed (the port, the scheme, the context path, the method) to name
 * the one that made the difference.
 */
public final class Explain {
  /** Whether a resource matched, and the lines that say which or why none did. */
  public static final class Result {
    public final boolean matched;
    public final List<String> lines;

    Result(boolean matched, List<String> lines) {
      this.matched = matched;
      this.lines = lines;
    }
  }

  private final RuleSet rules;
  private final CompiledMatch[] matches;

  private Explain(RuleSet rules) {
    this.rules = rules;
    this.matches = new CompiledMatch[rules.resources.size()];
    for (int i = 0; i < matches.length; i++) {
      matches[i] = new CompiledMatch(rules.resources.get(i));
    }
  }

  /** An inbound request: {@code path} as the container sees it, context path included. */
  public static Result servlet(RuleSet rules, String method, String path) {
    Explain e = new Explain(rules);
    int hit = new ResourceMatcher(rules).servlet(method, path);
    List<String> lines = e.verdict(method + " " + path, hit, CallKind.SERVLET);
    if (hit < 0) {
      for (int i : e.ofKind(CallKind.SERVLET)) {
        e.nearMiss(lines, i, method, path, e.servletReason(i, path));
      }
    } else {
      e.alsoMatched(lines, hit, Call.servlet(method, path));
    }
    if (rules.system != null) {
      lines.add(
          new ResourceMatcher(rules).systemExcluded(path)
              ? "the system rule does not shed it: system.exclude names the path"
              : "the system rule applies to it as well (it is not in system.exclude)");
    }
    return new Result(hit >= 0, lines);
  }

  /** An outbound HTTP call to an absolute URL. */
  public static Result http(RuleSet rules, String method, String url) {
    Explain e = new Explain(rules);
    int hit = new ResourceMatcher(rules).http(method, url);
    List<String> lines = e.verdict(method + " " + url, hit, CallKind.HTTP);
    if (hit < 0) {
      for (int i : e.ofKind(CallKind.HTTP)) {
        e.nearMiss(lines, i, method, url, e.httpReason(i, url));
      }
    } else {
      e.alsoMatched(lines, hit, Call.http(method, url));
    }
    return new Result(hit >= 0, lines);
  }

  /** A JDBC statement on the database at {@code jdbcUrl}; with a null {@code sql}, a connect. */
  public static Result jdbc(RuleSet rules, String jdbcUrl, String sql) {
    Explain e = new Explain(rules);
    ResourceMatcher matcher = new ResourceMatcher(rules);
    int hit = sql == null ? matcher.jdbcConnect(jdbcUrl) : matcher.jdbc(jdbcUrl, sql);
    SqlInfo info = sql == null ? null : SqlClassifier.classify(sql);
    String call =
        sql == null
            ? "a connection to " + jdbcUrl
            : info.operation() + " " + Arrays.toString(info.tables()) + " on " + jdbcUrl;
    List<String> lines = e.verdict(call, hit, CallKind.JDBC);
    if (hit < 0) {
      for (int i : e.ofKind(CallKind.JDBC)) {
        lines.add("  " + e.name(i) + ": " + e.jdbcReason(i, jdbcUrl, info, sql));
      }
    } else {
      e.alsoMatched(lines, hit, Call.jdbc(jdbcUrl, sql));
    }
    return new Result(hit >= 0, lines);
  }

  private List<String> verdict(String call, int hit, CallKind kind) {
    List<String> lines = new ArrayList<String>();
    if (hit >= 0) {
      ResourceRule r = rules.resources.get(hit);
      lines.add(
          call
              + ": resource "
              + r.name
              + " ("
              + kind.name().toLowerCase(Locale.ROOT)
              + ", "
              + ordinal(hit + 1)
              + " in the file"
              + (r.mode == Mode.MONITOR ? "; monitor mode: counted, never refused" : "")
              + ")");
      return lines;
    }
    int[] candidates = ofKind(kind);
    lines.add(
        call
            + ": no resource"
            + (candidates.length == 0
                ? " (the file has no " + kind.name().toLowerCase(Locale.ROOT) + " resource)"
                : "; each "
                    + kind.name().toLowerCase(Locale.ROOT)
                    + " resource, and why it missed:"));
    return lines;
  }

  /** A call as the matcher takes it, to ask one resource alone. */
  private abstract static class Call {
    abstract int find(ResourceMatcher matcher);

    static Call servlet(final String method, final String path) {
      return new Call() {
        @Override
        int find(ResourceMatcher matcher) {
          return matcher.servlet(method, path);
        }
      };
    }

    static Call http(final String method, final String url) {
      return new Call() {
        @Override
        int find(ResourceMatcher matcher) {
          return matcher.http(method, url);
        }
      };
    }

    static Call jdbc(final String url, final String sql) {
      return new Call() {
        @Override
        int find(ResourceMatcher matcher) {
          return sql == null ? matcher.jdbcConnect(url) : matcher.jdbc(url, sql);
        }
      };
    }
  }

  /** Later resources of the file that match the call too, which the first match hides. */
  private void alsoMatched(List<String> lines, int hit, Call call) {
    StringBuilder hidden = new StringBuilder();
    for (int i = hit + 1; i < matches.length; i++) {
      if (matches[i].kind != matches[hit].kind) {
        continue;
      }
      RuleSet alone =
          new RuleSet(
              rules.source,
              rules.settings,
              null,
              java.util.Collections.singletonList(rules.resources.get(i)));
      if (call.find(new ResourceMatcher(alone)) >= 0) {
        hidden.append(hidden.length() == 0 ? "" : ", ").append(name(i));
      }
    }
    if (hidden.length() > 0) {
      lines.add(
          "  it matches "
              + hidden
              + " too, later in the file: the first resource that matches a call is the one"
              + " that applies");
    }
  }

  private void nearMiss(List<String> lines, int i, String method, String target, String reason) {
    CompiledMatch m = matches[i];
    boolean targetMatches =
        m.kind == CallKind.SERVLET ? m.pathMatches(target) : m.urlMatches(target);
    if (targetMatches && !m.methodMatches(method)) {
      reason =
          "matches the "
              + (m.kind == CallKind.SERVLET ? "path" : "URL")
              + " but not "
              + method
              + ": methods "
              + Arrays.toString(m.methods);
    }
    lines.add("  " + name(i) + ": " + reason);
  }

  private String servletReason(int i, String path) {
    CompiledMatch m = matches[i];
    if (path.indexOf('?') >= 0) {
      return "a servlet path has no query string: try it without what follows ?";
    }
    int second = path.indexOf('/', 1);
    for (PathPattern p : m.paths) {
      if (second > 0 && p.matches(path.substring(second))) {
        return "`"
            + p
            + "` matches "
            + path.substring(second)
            + ", but a servlet path includes the application's context path ("
            + path.substring(0, second)
            + "): write "
            + path.substring(0, second)
            + p
            + " or /*"
            + p;
      }
    }
    return "its paths " + quoted(Arrays.asList(m.paths)) + " do not match " + path;
  }

  private String httpReason(int i, String url) {
    CompiledMatch m = matches[i];
    Url u = Url.parse(url);
    if (u != null) {
      for (UrlPattern p : m.urls) {
        if (u.explicitPort && !u.defaultPort() && p.matches(u.withPort(-1))) {
          return "`"
              + p
              + "` names no port, so it matches only "
              + u.scheme
              + "'s default port ("
              + u.defaultPortNumber()
              + "); the call is to port "
              + u.port
              + ": write the port (:"
              + u.port
              + ") or any port (:*) after the host";
        }
        String other = "https".equals(u.scheme) ? "http" : "https";
        if (p.matches(other + u.rest)) {
          return "`"
              + p
              + "` is for "
              + other
              + ", the call is "
              + u.scheme
              + ": use *:// for both";
        }
      }
    }
    return "its urls " + quoted(Arrays.asList(m.urls)) + " do not match " + url;
  }

  private String jdbcReason(int i, String url, SqlInfo info, String sql) {
    CompiledMatch m = matches[i];
    if (!m.jdbcUrlMatches(url)) {
      return "its urls " + quoted(Arrays.asList(m.jdbcUrls)) + " do not match " + url;
    }
    if (info == null) {
      return "acquiring a connection matches only a resource whose operations name CONNECT";
    }
    if (m.operations != null && !m.operations[info.operation().ordinal()]) {
      return "the statement is a "
          + info.operation()
          + ", not one of its operations "
          + rules.resources.get(i).match.operations;
    }
    if (m.tables.length > 0 && !m.anyTableMatches(info.tables)) {
      return info.tables.length == 0
          ? "the statement names no table Levee can read, and its tables "
              + quoted(Arrays.asList(m.tables))
              + " match only statements that do"
          : "the statement's tables "
              + Arrays.toString(info.tables)
              + " do not match its tables "
              + quoted(Arrays.asList(m.tables));
    }
    if (m.sql != null && !m.sql.matcher(sql).find()) {
      return "its sql `" + m.sql.pattern() + "` is not found in the statement";
    }
    return "its match accepts the statement";
  }

  private int[] ofKind(CallKind kind) {
    int n = 0;
    for (CompiledMatch m : matches) {
      n += m.kind == kind ? 1 : 0;
    }
    int[] of = new int[n];
    n = 0;
    for (int i = 0; i < matches.length; i++) {
      if (matches[i].kind == kind) {
        of[n++] = i;
      }
    }
    return of;
  }

  private String name(int i) {
    return rules.resources.get(i).name;
  }

  private static String quoted(List<?> patterns) {
    StringBuilder s = new StringBuilder("[");
    for (Object p : patterns) {
      s.append(s.length() > 1 ? ", " : "").append('`').append(p).append('`');
    }
    return s.append(']').toString();
  }

  private static String ordinal(int n) {
    int mod100 = n % 100;
    String suffix =
        mod100 >= 11 && mod100 <= 13
            ? "th"
            : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return n + suffix + " resource";
  }

  /** An absolute http(s) URL taken apart just enough to change its port or scheme. */
  private static final class Url {
    final String scheme;
    final String host;
    final int port;
    final boolean explicitPort;

    /** Everything after the scheme, from {@code ://}. */
    final String rest;

    final String path;

    private Url(String scheme, String host, int port, boolean explicitPort, String path) {
      this.scheme = scheme;
      this.host = host;
      this.port = port;
      this.explicitPort = explicitPort;
      this.path = path;
      this.rest = "://" + host + (explicitPort ? ":" + port : "") + path;
    }

    static Url parse(String url) {
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
          return new Url(scheme, authority.substring(0, portColon), port, true, path);
        } catch (NumberFormatException e) {
          return null;
        }
      }
      return new Url(scheme, authority, -1, false, path);
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
}
