package io.levee.agent.instrument;

import java.util.ArrayList;
import java.util.List;

/** What the integrations give the {@link Weaver}: their {@link TypeRule}s, in order. */
public final class Transformations {
  private final List<TypeRule> rules = new ArrayList<TypeRule>();

  public Transformations add(TypeRule rule) {
    rules.add(rule);
    return this;
  }

  int size() {
    return rules.size();
  }

  /** The rules for a class named {@code internalName} with the API bits {@code mask}. */
  List<TypeRule> forType(String internalName, int mask) {
    List<TypeRule> matching = null;
    for (TypeRule rule : rules) {
      if (rule.matches(internalName, mask)) {
        if (matching == null) {
          matching = new ArrayList<TypeRule>(2);
        }
        matching.add(rule);
      }
    }
    return matching;
  }

  /** The API bits any rule targets. */
  int apis() {
    int mask = 0;
    for (TypeRule rule : rules) {
      mask |= rule.apis;
    }
    return mask;
  }
}
