package io.levee.rules.load;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.model.ConcurrencySpec;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.Match;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.Priority;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.TimeoutsSpec;
import org.yaml.snakeyaml.nodes.Node;

/** Reads one entry of {@code resources:} and checks that its parts fit together. */
final class ResourceReader {
  static final String[] KEYS = {
    "name",
    "mode",
    "match",
    "rate-limit",
    "concurrency",
    "circuit-breaker",
    "adaptive",
    "failure",
    "timeouts",
    "on-block",
    "priority",
    "backpressure"
  };
  private static final String[] POLICIES = {
    "circuit-breaker", "rate-limit", "concurrency", "adaptive", "timeouts"
  };

  private ResourceReader() {}

  /**
   * The resource, or null when it has any error (all of them reported). {@code clustered}: whether
   * the file has {@code settings.cluster}; {@code system}: whether it has a {@code system:} rule.
   */
  static ResourceRule read(
      Node node,
      String path,
      Mode defaultMode,
      boolean clustered,
      boolean system,
      Problems problems) {
    int before = problems.count();
    if (Section.isNull(node)) {
      problems.at(
          node,
          path,
          "expected a resource: a mapping with name, match and policies, got" + " nothing");
      return null;
    }
    Section r =
        Section.read(
            node,
            node.getStartMark(),
            path,
            problems,
            "a resource: a mapping with name, match and policies",
            KEYS);
    if (!r.readable()) {
      return null;
    }
    String name =
        r.require("name", Patterns.NAME_TYPE, "a unique name for the resource, like" + " checkout");
    Mode mode = r.get("mode", Types.MODE, defaultMode);
    Match match = MatchReader.read(r);
    CallKind kind = match != null ? match.kind : null;

    Section rl =
        r.section(
            "rate-limit",
            "a mapping with rate, burst, warm-up, max-wait and per",
            PolicyReader.RATE_LIMIT);
    RateLimitSpec rateLimit = rl != null ? PolicyReader.rateLimit(rl, kind, clustered) : null;
    Section c =
        r.section("concurrency", "a mapping with max and max-wait", PolicyReader.CONCURRENCY);
    ConcurrencySpec concurrency = c != null ? PolicyReader.concurrency(c) : null;
    Section cb =
        r.section(
            "circuit-breaker",
            "a mapping of circuit-breaker settings",
            PolicyReader.CIRCUIT_BREAKER);
    CircuitBreakerSpec breaker = cb != null ? PolicyReader.circuitBreaker(cb) : null;
    Section a =
        r.section(
            "adaptive",
            "a mapping with min-limit, max-limit, initial-limit and" + " cpu-target",
            PolicyReader.ADAPTIVE);
    AdaptiveSpec adaptive = a != null ? PolicyReader.adaptive(a) : null;
    Section t =
        r.section("timeouts", "a mapping with connect, read or query", PolicyReader.TIMEOUTS);
    TimeoutsSpec timeouts = t != null ? PolicyReader.timeouts(t, kind) : TimeoutsSpec.NONE;
    Section f =
        r.section(
            "failure",
            "a mapping with statuses, exceptions, ignore-exceptions and" + " ignore-sql-states",
            OutcomeReader.FAILURE);
    FailureSpec failure = f != null ? OutcomeReader.failure(f, kind) : FailureSpec.DEFAULT;
    Section b =
        r.section("on-block", "a mapping of what a blocked call gets", OutcomeReader.ON_BLOCK);
    OnBlock onBlock = b != null ? OutcomeReader.onBlock(b, match) : OnBlock.DEFAULT;
    Priority priority = r.get("priority", Types.PRIORITY, Priority.NORMAL);

    Boolean backpressure = r.get("backpressure", Types.BOOLEAN, null);
    if (r.has("backpressure") && kind != null && kind != CallKind.SERVLET) {
      r.reject(
          "backpressure",
          "`backpressure` applies to servlet resources and `system`: it answers an inbound"
              + " request that failed after Levee refused one of its calls; set it on the"
              + " servlet resource (or `system`) that serves those requests");
    }

    if (t != null && t.readable() && t.isEmpty() && kind != CallKind.METHOD) {
      r.reject("timeouts", "`timeouts` is empty; set connect and read (http) or query (jdbc)");
    }
    if (t != null && kind == CallKind.SERVLET) {
      r.reject(
          "timeouts",
          "`timeouts` applies to http and jdbc resources; a servlet resource"
              + " serves calls, it does not make them");
    }
    if (t != null && kind == CallKind.METHOD) {
      r.reject(
          "timeouts",
          "`timeouts` applies to http and jdbc resources, whose clients have a timeout to set;"
              + " a method has none (bound slow calls with circuit-breaker's `slow-call`)");
    }
    if (f != null && cb == null && a == null) {
      r.reject(
          "failure",
          "`failure` only tells circuit-breaker and adaptive what a failed call is,"
              + " and this resource has neither");
    }
    if (r.has("priority") && kind != null && kind != CallKind.SERVLET) {
      r.reject(
          "priority",
          "`priority` applies to servlet resources: it ranks inbound requests under the `system`"
              + " limit, and a "
              + kind.key
              + " resource's calls are not inbound requests; leave it out here");
    } else if (r.has("priority") && !system) {
      r.reject(
          "priority",
          "`priority` ranks requests only when the `system` limit is full, and this file has no"
              + " `system:`; add one, like system: { adaptive: { cpu-target: 80% } }, or leave"
              + " `priority` out");
    }
    // A servlet resource may exist only to set a priority, or to ask for backpressure on some
    // paths.
    if (!hasPolicy(r)
        && !(kind == CallKind.SERVLET
            && (r.has("priority") || Boolean.TRUE.equals(backpressure)))) {
      r.error(
          (name != null ? "resource `" + name + "`" : "this resource")
              + " has no policy; add at least one of circuit-breaker, rate-limit, concurrency"
              + (kind == CallKind.METHOD ? " or adaptive" : ", adaptive or timeouts"));
    }
    if (problems.count() > before) {
      return null;
    }
    return new ResourceRule(
        name,
        mode,
        match,
        breaker,
        rateLimit,
        concurrency,
        adaptive,
        failure,
        timeouts,
        onBlock,
        priority,
        backpressure);
  }

  private static boolean hasPolicy(Section r) {
    for (String key : POLICIES) {
      if (r.has(key)) {
        return true;
      }
    }
    return false;
  }
}
