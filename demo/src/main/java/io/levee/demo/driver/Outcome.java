package io.levee.demo.driver;

import java.util.Locale;

/**
 * What one response tells the driver: served, served with the partner fallback, blocked by Levee
 * (and why), or failed. It reads only what a client sees (status, body, Retry-After), so it works
 * the same with and without the agent.
 */
record Outcome(Kind kind, String reason, boolean retryAfter) {
  enum Kind {
    OK,
    FALLBACK,
    BLOCKED,
    ERROR
  }

  static Outcome of(int status, String body, boolean retryAfter) {
    String text = body == null ? "" : body.toLowerCase(Locale.ROOT);
    if (status == 200 && text.contains("\"source\":\"fallback\"")) {
      return new Outcome(Kind.FALLBACK, "fallback", retryAfter);
    }
    if (status < 400) {
      return new Outcome(Kind.OK, null, retryAfter);
    }
    if (status == 429 || text.contains("levee:")) {
      return new Outcome(Kind.BLOCKED, status + " " + reason(text, status), retryAfter);
    }
    return new Outcome(Kind.ERROR, String.valueOf(status), retryAfter);
  }

  static Outcome failed(Throwable error) {
    String name = error.getClass().getSimpleName().replace("Exception", "");
    return new Outcome(
        Kind.ERROR,
        name.toLowerCase(Locale.ROOT).contains("timeout")
            ? "timeout"
            : name.toLowerCase(Locale.ROOT),
        false);
  }

  /** The policy named in a blocked answer: Levee's bodies and messages name it. */
  private static String reason(String text, int status) {
    if (text.contains("system") || text.contains("adaptive")) {
      return "system";
    }
    if (text.contains("concurren")) {
      return "concurrency";
    }
    if (text.contains("rate")) {
      return "rate";
    }
    if (text.contains("circuit") || text.contains("breaker")) {
      return "breaker";
    }
    return status == 429 ? "rate" : "levee";
  }
}
