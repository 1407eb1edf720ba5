package io.levee.agent.endpoint;

import io.levee.rules.load.RuleError;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * When the rules in force were loaded and the last reload that was rejected, for {@code /status}
 * and the live page: the log says the same, but someone looking at the page should not need the log
 * to learn that their edit did not take.
 *
 * <p>Concurrency: the reload thread writes, request threads read; each event is one immutable
 * object behind a volatile reference.
 */
public final class RulesEvents {
  private volatile long loadedAt;
  private volatile Rejection rejected;

  /** {@code epochMillis}: when the rules now in force took effect. */
  public RulesEvents(long epochMillis) {
    this.loadedAt = epochMillis;
  }

  /** A reload was applied: the rules in force are new, and no rejection is newer than them. */
  public void applied(long epochMillis) {
    loadedAt = epochMillis;
  }

  /** A reload of {@code file} was rejected with {@code errors}; the rules in force stayed. */
  public void rejected(long epochMillis, String file, List<RuleError> errors) {
    List<String> lines = new ArrayList<String>(errors.size());
    for (RuleError e : errors) {
      lines.add(e.toString());
    }
    rejected = new Rejection(epochMillis, file, lines);
  }

  /**
   * Appends {@code ,"loaded":"…","rejected":…}: the time the rules took effect, then the last
   * rejection when it came after them ({@code {"at":…,"file":…,"errors":[…]}}), else null. Times
   * are ISO-8601 in UTC.
   */
  void json(StringBuilder out) {
    long loaded = loadedAt;
    Rejection r = rejected;
    out.append(",\"loaded\":");
    StatusJson.string(out, iso(loaded));
    out.append(",\"rejected\":");
    if (r == null || r.at < loaded) {
      out.append("null");
      return;
    }
    out.append("{\"at\":");
    StatusJson.string(out, iso(r.at));
    out.append(",\"file\":");
    StatusJson.string(out, r.file);
    out.append(",\"errors\":[");
    for (int i = 0; i < r.errors.size(); i++) {
      out.append(i > 0 ? "," : "");
      StatusJson.string(out, r.errors.get(i));
    }
    out.append("]}");
  }

  private static String iso(long epochMillis) {
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    return f.format(new Date(epochMillis));
  }

  private static final class Rejection {
    final long at;
    final String file;
    final List<String> errors;

    Rejection(long at, String file, List<String> errors) {
      this.at = at;
      this.file = file;
      this.errors = errors;
    }
  }
}
