package io.levee.rules.match;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.Match;
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

/** Rule sets built straight from the model, without the loader. */
final class TestRules {
  private static final List<String> NONE = Collections.emptyList();

  private TestRules() {}

  static List<String> list(String... values) {
    return Arrays.asList(values);
  }

  static Set<Operation> ops(Operation... ops) {
    return ops.length == 0 ? EnumSet.noneOf(Operation.class) : EnumSet.copyOf(Arrays.asList(ops));
  }

  static ResourceRule servlet(String name, List<String> methods, String... paths) {
    return rule(name, new Match(CallKind.SERVLET, methods, list(paths), NONE, ops(), NONE, null));
  }

  static ResourceRule http(String name, List<String> methods, String... urls) {
    return rule(name, new Match(CallKind.HTTP, methods, NONE, list(urls), ops(), NONE, null));
  }

  static ResourceRule jdbc(
      String name, List<String> urls, Set<Operation> operations, List<String> tables, String sql) {
    return rule(name, new Match(CallKind.JDBC, NONE, NONE, urls, operations, tables, sql));
  }

  static RuleSet rules(ResourceRule... resources) {
    return new RuleSet("test", Settings.DEFAULT, null, Arrays.asList(resources));
  }

  static RuleSet withExcludes(List<String> exclude, ResourceRule... resources) {
    SystemRule system =
        new SystemRule(exclude, AdaptiveSpec.defaults(), Mode.ENFORCE, OnBlock.DEFAULT);
    return new RuleSet("test", Settings.DEFAULT, system, Arrays.asList(resources));
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
