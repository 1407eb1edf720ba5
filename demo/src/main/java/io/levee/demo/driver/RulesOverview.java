package io.levee.demo.driver;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.Mode;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rules file as the reader of the demo needs it: checked with the same loader the agent uses
 * (so a broken file stops the demo before it starts), and each resource in a few words.
 */
final class RulesOverview {
  /** The name the table uses for the {@code system:} block. */
  static final String SYSTEM = "system";

  private final RuleSet rules;

  private RulesOverview(RuleSet rules) {
    this.rules = rules;
  }

  /** The overview, or null after printing every error of the file. */
  static RulesOverview load(Path file, PrintStream out) {
    LoadResult result = RulesLoader.load(file);
    if (!result.ok()) {
      out.println("The rules file has errors:");
      for (RuleError e : result.errors()) {
        out.println("  " + e);
      }
      return null;
    }
    return new RulesOverview(result.rules());
  }

  /** One line per protection, for the opening of the demo. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    if (rules.system != null) {
      lines.add(
          String.format(
              Locale.ROOT,
              "%-16s all inbound requests except %s: %s",
              SYSTEM,
              rules.system.exclude,
              describe(SYSTEM)));
    }
    for (ResourceRule r : rules.resources) {
      lines.add(
          String.format(Locale.ROOT, "%-16s %s: %s", r.name, r.match.kind.key, describe(r.name)));
    }
    return lines;
  }

  /** The policies of a resource in a few words, like "20/s per X-Tenant-ID"; "none" if unknown. */
  String describe(String resource) {
    if (SYSTEM.equals(resource)) {
      return rules.system == null
          ? "none"
          : String.format(
              Locale.ROOT,
              "adaptive %d..%d, cpu-target %.0f%%%s",
              rules.system.adaptive.minLimit,
              rules.system.adaptive.maxLimit,
              rules.system.adaptive.cpuTarget * 100,
              monitor(rules.system.mode));
    }
    ResourceRule r = find(resource);
    if (r == null) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    if (r.circuitBreaker != null) {
      parts.add(
          String.format(
              Locale.ROOT,
              "breaker at %.0f%% failures of >=%d calls in %ds",
              r.circuitBreaker.failureRate * 100,
              r.circuitBreaker.minimumCalls,
              r.circuitBreaker.windowNanos / 1_000_000_000L));
    }
    if (r.rateLimit != null) {
      parts.add(
          String.format(
              Locale.ROOT,
              "%s/s%s",
              number(r.rateLimit.permitsPerSecond),
              r.rateLimit.per == null ? "" : " per " + keyName(r)));
    }
    if (r.concurrency != null) {
      parts.add("max " + r.concurrency.max + " in flight");
    }
    if (r.adaptive != null) {
      parts.add("adaptive " + r.adaptive.minLimit + ".." + r.adaptive.maxLimit);
    }
    if (r.timeouts.connectNanos > 0 || r.timeouts.readNanos > 0 || r.timeouts.queryNanos > 0) {
      parts.add("timeouts");
    }
    if (r.onBlock.fallback != null) {
      parts.add("fallback " + r.onBlock.fallback.status);
    }
    return String.join(", ", parts) + monitor(r.mode);
  }

  /** The limit column of the table: the number the rules set, as far as a file can say. */
  String limit(String resource) {
    if (SYSTEM.equals(resource)) {
      return rules.system == null ? "-" : "adaptive";
    }
    ResourceRule r = find(resource);
    if (r == null) {
      return "-";
    }
    if (r.concurrency != null) {
      return "max " + r.concurrency.max;
    }
    if (r.rateLimit != null) {
      return number(r.rateLimit.permitsPerSecond) + "/s" + (r.rateLimit.per != null ? " each" : "");
    }
    return r.circuitBreaker != null ? "breaker" : "-";
  }

  private ResourceRule find(String name) {
    for (ResourceRule r : rules.resources) {
      if (r.name.equals(name)) {
        return r;
      }
    }
    return null;
  }

  private static String keyName(ResourceRule r) {
    return r.rateLimit.per.name != null
        ? r.rateLimit.per.name
        : r.rateLimit.per.source.name().toLowerCase(Locale.ROOT);
  }

  private static String monitor(Mode mode) {
    return mode == Mode.MONITOR ? " (monitor)" : "";
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
  }
}
