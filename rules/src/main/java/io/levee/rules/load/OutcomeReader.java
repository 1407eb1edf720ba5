package io.levee.rules.load;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.LastGoodSpec;
import io.levee.rules.model.Match;
import io.levee.rules.model.OnBlock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads the two blocks about outcomes: {@code failure:} (what counts as a failed call) and {@code
 * on-block:} (what a blocked call gets). Which keys make sense depends on the kind of call, so a
 * key that the kind would ignore is an error rather than a silent no-op.
 */
final class OutcomeReader {
  static final String[] FAILURE = {
    "statuses", "exceptions", "ignore-exceptions", "ignore-sql-states"
  };
  static final String[] ON_BLOCK = {
    "status", "retry-after", "body", "content-type", "headers", "fallback", "sql-state", "throw"
  };
  static final String[] FALLBACK = {
    "status", "body", "headers", "last-good", "max-body", "max-entries", "vary"
  };

  /** The keys of fallback that only shape the last good answer. */
  private static final String[] LAST_GOOD_BOUNDS = {"max-body", "max-entries"};

  /** The largest {@code max-body}: a kept body is held in memory, once per URL. */
  static final int MAX_BODY_LIMIT = 16 * 1024 * 1024;

  static final int MAX_ENTRIES_LIMIT = 100_000;

  /** The keys of on-block that shape a servlet response. */
  private static final String[] RESPONSE = {
    "status", "retry-after", "body", "content-type", "headers"
  };

  /** The keys of on-block that shape a servlet response, an http fallback or a jdbc exception. */
  private static final String[] NOT_FOR_METHODS = {
    "status", "retry-after", "body", "content-type", "headers", "fallback", "sql-state"
  };

  private static final int FALLBACK_STATUS = 503;

  private OutcomeReader() {}

  static FailureSpec failure(Section s, CallKind kind) {
    List<String> statuses = s.list("statuses", Patterns.FAILURE_STATUS, "[\"5xx\", 429]");
    List<String> exceptions =
        s.list("exceptions", Patterns.CLASS_NAME_TYPE, "[java.io.IOException]");
    List<String> ignoreExceptions =
        s.list("ignore-exceptions", Patterns.CLASS_NAME_TYPE, "[java.io.FileNotFoundException]");
    List<String> ignoreSqlStates =
        s.list("ignore-sql-states", Patterns.SQL_STATE_PATTERN_TYPE, "[\"23*\"]");
    if (s.has("statuses") && kind == CallKind.JDBC) {
      s.reject(
          "statuses",
          "`statuses` applies to servlet and http resources; a jdbc call has no"
              + " status (use `ignore-sql-states`)");
    }
    if (s.has("statuses") && kind == CallKind.METHOD) {
      s.reject(
          "statuses",
          "`statuses` applies to servlet and http resources; a method call has no"
              + " status (use `exceptions` and `ignore-exceptions`)");
    }
    if (s.has("ignore-sql-states") && kind != null && kind != CallKind.JDBC) {
      s.reject(
          "ignore-sql-states",
          "`ignore-sql-states` applies only to jdbc resources; this"
              + " resource matches "
              + kind.key
              + " calls"
              + (kind == CallKind.METHOD
                  ? " (use `ignore-exceptions` for what the method throws)"
                  : ""));
    }
    return new FailureSpec(
        statuses != null ? statuses : FailureSpec.DEFAULT.statuses,
        orEmpty(exceptions),
        orEmpty(ignoreExceptions),
        orEmpty(ignoreSqlStates));
  }

  /** Reads on-block of a resource that matches {@code match}, null when its match is not valid. */
  static OnBlock onBlock(Section s, Match match) {
    CallKind kind = match == null ? null : match.kind;
    List<String> methods = match == null ? Collections.<String>emptyList() : match.methods;
    return onBlock(
        s, kind, methods, kind == null ? "" : "this resource matches " + kind.key + " calls");
  }

  /** Reads on-block of the system rule, which sheds inbound requests as a servlet resource does. */
  static OnBlock systemOnBlock(Section s) {
    return onBlock(
        s, CallKind.SERVLET, Collections.<String>emptyList(), "`system` sheds inbound requests");
  }

  private static OnBlock onBlock(Section s, CallKind kind, List<String> methods, String subject) {
    Integer status = s.get("status", Patterns.status(400, 599), null);
    int retryAfter = s.get("retry-after", Patterns.RETRY_AFTER, OnBlock.RETRY_AFTER_AUTO);
    String body = s.get("body", Types.TEXT, null);
    String contentType = s.get("content-type", Patterns.HEADER_VALUE, null);
    Map<String, String> headers = s.headers("headers");
    String sqlState = s.get("sql-state", Patterns.SQL_STATE_TYPE, null);
    OnBlock.Fallback fallback = null;
    Section f =
        s.section("fallback", "a mapping with status, body, headers and last-good", FALLBACK);
    if (f != null) {
      fallback =
          new OnBlock.Fallback(
              f.get("status", Patterns.status(200, 599), FALLBACK_STATUS),
              f.get("body", Types.TEXT, ""),
              f.headers("headers"),
              lastGood(f, methods));
    }
    String exception = s.get("throw", Patterns.EXCEPTION_NAME_TYPE, null);
    if (kind == CallKind.METHOD) {
      for (String key : NOT_FOR_METHODS) {
        if (s.has(key)) {
          s.reject(
              key,
              "`"
                  + key
                  + "` does not apply to method resources: a blocked method call throws;"
                  + " name its exception with `throw`, like"
                  + " throw: com.acme.pricing.PricingUnavailableException");
        }
      }
    } else {
      otherKinds(s, kind, f != null, sqlState != null, subject);
    }
    if (!s.has("throw")) {
      return new OnBlock(status, retryAfter, body, contentType, headers, fallback, sqlState);
    }
    // where the agent points when the exception cannot be thrown from a woven method
    Node at = s.value("throw");
    return new OnBlock(
        status,
        retryAfter,
        body,
        contentType,
        headers,
        fallback,
        sqlState,
        exception,
        at.getStartMark().getLine() + 1,
        at.getStartMark().getColumn() + 1);
  }

  /** The checks of on-block for the kinds other than method, whose keys these are. */
  private static void otherKinds(
      Section s, CallKind kind, boolean fallback, boolean sqlState, String subject) {
    if (kind != null && kind != CallKind.SERVLET) {
      String instead =
          kind == CallKind.HTTP
              ? "a blocked http call throws an IOException, or answers with `fallback`"
              : "a blocked jdbc call throws a SQLTransientException with `sql-state`";
      for (String key : RESPONSE) {
        if (s.has(key)) {
          s.reject(key, "`" + key + "` applies only to servlet resources; " + instead);
        }
      }
    }
    if (fallback && kind != null && kind != CallKind.HTTP) {
      s.reject("fallback", "`fallback` applies only to http resources; " + subject);
    }
    if (sqlState && kind != null && kind != CallKind.JDBC) {
      s.reject("sql-state", "`sql-state` applies only to jdbc resources; " + subject);
    }
    if (s.has("throw") && kind != null) {
      s.reject(
          "throw",
          "`throw` applies only to method resources; "
              + subject
              + ", and "
              + (kind == CallKind.SERVLET
                  ? "a blocked request gets `status`, `body` and `headers`"
                  : kind == CallKind.HTTP
                      ? "a blocked http call throws an IOException, or answers with `fallback`"
                      : "a blocked jdbc call throws a SQLTransientException with `sql-state`"));
    }
  }

  /**
   * {@code last-good} and its bounds, or null without it. {@code methods}: the methods the resource
   * matches (empty for all), since only a {@code GET} is ever answered from the last good answer.
   */
  private static LastGoodSpec lastGood(Section f, List<String> methods) {
    Long age = f.get("last-good", Types.duration(1), null);
    Integer maxBody = f.get("max-body", Types.size(1, MAX_BODY_LIMIT), null);
    Integer maxEntries = f.get("max-entries", Types.whole(1, MAX_ENTRIES_LIMIT), null);
    if (f.has("vary")) {
      f.reject(
          "vary",
          "`vary` is not supported yet: the last good answer is kept per URL, whatever the"
              + " request's headers; leave `vary` out (requests that differ by a header need"
              + " different URLs to be kept apart)");
    }
    if (!f.has("last-good")) {
      for (String key : LAST_GOOD_BOUNDS) {
        if (f.has(key)) {
          f.reject(
              key,
              "`"
                  + key
                  + "` bounds the last good answers, which are kept only with `last-good`;"
                  + " add last-good: 5m, or leave `"
                  + key
                  + "` out");
        }
      }
      return null;
    }
    if (!methods.isEmpty() && !methods.contains("GET")) {
      f.reject(
          "last-good",
          "`last-good` answers only GET calls, and this resource matches "
              + Suggestions.join(methods)
              + "; add GET to the match's methods, or leave `last-good` out");
    }
    if (age == null) {
      return null;
    }
    return new LastGoodSpec(
        age,
        maxBody != null ? maxBody : Defaults.LAST_GOOD_MAX_BODY,
        maxEntries != null ? maxEntries : Defaults.LAST_GOOD_MAX_ENTRIES);
  }

  private static List<String> orEmpty(List<String> list) {
    return list != null ? list : Collections.<String>emptyList();
  }
}
