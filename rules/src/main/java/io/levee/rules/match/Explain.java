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
    Result result = new Explain(rules).explain(Call.servlet(method, path));
    if (rules.system != null) {
      result.lines.add(
          new ResourceMatcher(rules).systemExcluded(path)
              ? "the system rule does not shed it: system.exclude names the path"
              : "the system rule applies to it as well (it is not in system.exclude)");
    }
    return result;
  }

  /** An outbound HTTP call to an absolute URL. */
  public static Result http(RuleSet rules, String method, String url) {
    return new Explain(rules).explain(Call.http(method, url));
  }

  /** A JDBC statement on the database at {@code jdbcUrl}; with a null {@code sql}, a connect. */
  public static Result jdbc(RuleSet rules, String jdbcUrl, String sql) {
    return new Explain(rules).explain(Call.jdbc(jdbcUrl, sql));
  }

  /**
   * The matcher's verdict on the call, then the resources it hides or why each of its kind missed.
   */
  private Result explain(Call call) {
    int hit = call.find(new ResourceMatcher(rules));
    List<String> lines = verdict(call.described(), hit, call.kind);
    if (hit < 0) {
      for (int i : ofKind(call.kind)) {
        lines.add("  " + name(i) + ": " + call.missed(this, i));
      }
    } else {
      alsoMatched(lines, hit, call);
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

  /** A call as the matcher takes it, said for a person, and why one resource missed it. */
  private abstract static class Call {
    final CallKind kind;

    Call(CallKind kind) {
      this.kind = kind;
    }

    abstract int find(ResourceMatcher matcher);

    abstract String described();

    abstract String missed(Explain e, int resource);

    static Call servlet(final String method, final String path) {
      return new Call(CallKind.SERVLET) {
        @Override
        int find(ResourceMatcher matcher) {
          return matcher.servlet(method, path);
        }

        @Override
        String described() {
          return method + " " + path;
        }

        @Override
        String missed(Explain e, int i) {
          CompiledMatch m = e.matches[i];
          return m.pathMatches(path) && !m.methodMatches(method)
              ? otherMethod("path", method, m)
              : e.servletReason(i, path);
        }
      };
    }

    static Call http(final String method, final String url) {
      return new Call(CallKind.HTTP) {
        @Override
        int find(ResourceMatcher matcher) {
          return matcher.http(method, url);
        }

        @Override
        String described() {
          return method + " " + url;
        }

        @Override
        String missed(Explain e, int i) {
          CompiledMatch m = e.matches[i];
          return m.urlMatches(url) && !m.methodMatches(method)
              ? otherMethod("URL", method, m)
              : e.httpReason(i, url);
        }
      };
    }

    static Call jdbc(final String url, final String sql) {
      final SqlInfo info = sql == null ? null : SqlClassifier.classify(sql);
      return new Call(CallKind.JDBC) {
        @Override
        int find(ResourceMatcher matcher) {
          return sql == null ? matcher.jdbcConnect(url) : matcher.jdbc(url, sql);
        }

        @Override
        String described() {
          return sql == null
              ? "a connection to " + url
              : info.operation() + " " + Arrays.toString(info.tables()) + " on " + url;
        }

        @Override
        String missed(Explain e, int i) {
          return e.jdbcReason(i, url, info, sql);
        }
      };
    }

    private static String otherMethod(String target, String method, CompiledMatch m) {
      return "matches the "
          + target
          + " but not "
          + method
          + ": methods "
          + Arrays.toString(m.methods);
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
    ExplainedUrl u = ExplainedUrl.parse(url);
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
}
