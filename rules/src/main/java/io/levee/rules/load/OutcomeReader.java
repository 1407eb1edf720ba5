package io.levee.rules.load;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.OnBlock;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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
    "status", "retry-after", "body", "content-type", "headers", "fallback", "sql-state"
  };
  static final String[] FALLBACK = {"status", "body", "headers"};

  /** The keys of on-block that shape a servlet response. */
  private static final String[] RESPONSE = {
    "status", "retry-after", "body", "content-type", "headers"
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
    if (s.has("ignore-sql-states") && kind != null && kind != CallKind.JDBC) {
      s.reject(
          "ignore-sql-states",
          "`ignore-sql-states` applies only to jdbc resources; this"
              + " resource matches "
              + kind.key
              + " calls");
    }
    return new FailureSpec(
        statuses != null ? statuses : FailureSpec.DEFAULT.statuses,
        orEmpty(exceptions),
        orEmpty(ignoreExceptions),
        orEmpty(ignoreSqlStates));
  }

  /** Reads on-block of a resource of {@code kind}, or null when its kind is not known. */
  static OnBlock onBlock(Section s, CallKind kind) {
    return onBlock(s, kind, kind == null ? "" : "this resource matches " + kind.key + " calls");
  }

  /** Reads on-block of the system rule, which sheds inbound requests as a servlet resource does. */
  static OnBlock systemOnBlock(Section s) {
    return onBlock(s, CallKind.SERVLET, "`system` sheds inbound requests");
  }

  private static OnBlock onBlock(Section s, CallKind kind, String subject) {
    Integer status = s.get("status", Patterns.status(400, 599), null);
    int retryAfter = s.get("retry-after", Patterns.RETRY_AFTER, OnBlock.RETRY_AFTER_AUTO);
    String body = s.get("body", Types.TEXT, null);
    String contentType = s.get("content-type", Patterns.HEADER_VALUE, null);
    Map<String, String> headers = s.headers("headers");
    String sqlState = s.get("sql-state", Patterns.SQL_STATE_TYPE, null);
    OnBlock.Fallback fallback = null;
    Section f = s.section("fallback", "a mapping with status, body and headers", FALLBACK);
    if (f != null) {
      fallback =
          new OnBlock.Fallback(
              f.get("status", Patterns.status(200, 599), FALLBACK_STATUS),
              f.get("body", Types.TEXT, ""),
              f.headers("headers"));
    }
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
    if (f != null && kind != null && kind != CallKind.HTTP) {
      s.reject("fallback", "`fallback` applies only to http resources; " + subject);
    }
    if (sqlState != null && kind != null && kind != CallKind.JDBC) {
      s.reject("sql-state", "`sql-state` applies only to jdbc resources; " + subject);
    }
    return new OnBlock(status, retryAfter, body, contentType, headers, fallback, sqlState);
  }

  private static List<String> orEmpty(List<String> list) {
    return list != null ? list : Collections.<String>emptyList();
  }
}
