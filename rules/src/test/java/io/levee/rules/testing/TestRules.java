package io.levee.rules.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.Operation;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.model.Settings;
import io.levee.rules.model.SystemRule;
import io.levee.rules.model.TimeoutsSpec;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one builder of rules for the tests: small rules files run through the loader, as users write
 * them, and rules built straight from the model for the matcher and policy tests, which feed their
 * unit values no file would hold as such.
 */
public final class TestRules {
  public static final String SERVLET = "servlet: { paths: [\"/api/**\"] }";
  public static final String HTTP = "http: { urls: [\"https://pay.example.com/**\"] }";
  public static final String JDBC = "jdbc: { urls: [\"jdbc:postgresql://*/orders\"] }";
  public static final String METHOD = "method: { class: com.acme.pricing.PriceClient }";

  /** How long {@link #breakerSpec} stays open after it trips. */
  public static final long BREAKER_OPEN_FOR = 5_000_000_000L;

  private static final long SECOND = 1_000_000_000L;
  private static final List<String> NONE = Collections.emptyList();

  private TestRules() {}

  // Rules files

  /** A rules file of {@code version: 1} followed by {@code body}. */
  public static String file(String body) {
    return "version: 1\n" + body;
  }

  /** A file with one resource named {@code r} matching {@code match}, with the given lines. */
  public static String resource(String match, String... lines) {
    StringBuilder yaml =
        new StringBuilder("version: 1\nresources:\n  - name: r\n    match: { ")
            .append(match)
            .append(" }\n");
    for (String line : lines) {
      yaml.append("    ").append(line).append('\n');
    }
    return yaml.toString();
  }

  /** The rules of a file that must load without errors. */
  public static RuleSet load(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", yaml);
    assertThat(result.errors()).as("errors in:\n%s", yaml).isEmpty();
    return result.rules();
  }

  /** The one resource of a file that must load without errors. */
  public static ResourceRule only(String yaml) {
    RuleSet rules = load(yaml);
    assertThat(rules.resources).hasSize(1);
    return rules.resources.get(0);
  }

  /** The errors of a file that must not load, each as {@code path: message}. */
  public static List<String> errors(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", yaml);
    assertThat(result.ok()).as("expected errors in:\n%s", yaml).isFalse();
    assertThat(result.rules()).isNull();
    return result.errors().stream()
        .map(e -> e.path() + ": " + e.message())
        .collect(Collectors.toList());
  }

  // Rules from the model

  public static List<String> list(String... values) {
    return Arrays.asList(values);
  }

  public static Set<Operation> ops(Operation... ops) {
    return ops.length == 0 ? EnumSet.noneOf(Operation.class) : EnumSet.copyOf(Arrays.asList(ops));
  }

  public static ResourceRule servlet(String name, List<String> methods, String... paths) {
    return rule(name, new Match(CallKind.SERVLET, methods, list(paths), NONE, ops(), NONE, null));
  }

  public static ResourceRule http(String name, List<String> methods, String... urls) {
    return rule(name, new Match(CallKind.HTTP, methods, NONE, list(urls), ops(), NONE, null));
  }

  public static ResourceRule jdbc(
      String name, List<String> urls, Set<Operation> operations, List<String> tables, String sql) {
    return rule(name, new Match(CallKind.JDBC, NONE, NONE, urls, operations, tables, sql));
  }

  /** A method resource; {@code annotated} may be null. */
  public static ResourceRule method(
      String name, List<String> classes, List<String> methods, String annotated) {
    return rule(name, new Match(new MethodMatch(classes, methods, annotated)));
  }

  public static RuleSet rules(ResourceRule... resources) {
    return new RuleSet("test", Settings.DEFAULT, null, Arrays.asList(resources));
  }

  public static RuleSet withExcludes(List<String> exclude, ResourceRule... resources) {
    SystemRule system =
        new SystemRule(exclude, AdaptiveSpec.defaults(), Mode.ENFORCE, OnBlock.DEFAULT);
    return new RuleSet("test", Settings.DEFAULT, system, Arrays.asList(resources));
  }

  /**
   * A breaker that trips at a 50% failure rate over 10 s once it has seen 4 calls, stays open
   * {@link #BREAKER_OPEN_FOR} (up to 60 s when it trips again) and lets 3 probes through when
   * half-open.
   */
  public static CircuitBreakerSpec breakerSpec(long slowCallNanos, double slowCallRate) {
    return new CircuitBreakerSpec(
        0.5, slowCallNanos, slowCallRate, 10 * SECOND, 4, BREAKER_OPEN_FOR, 60 * SECOND, 3);
  }

  private static ResourceRule rule(String name, Match match) {
    return new ResourceRule(
        name,
        Mode.ENFORCE,
        match,
        null,
        null,
        null,
        null,
        FailureSpec.DEFAULT,
        TimeoutsSpec.NONE,
        OnBlock.DEFAULT);
  }
}
