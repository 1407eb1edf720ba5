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

  /**
   * Every hook the rules' advice calls, as {owner, name, descriptor} (owner an internal name of the
   * bridge), so a test can hold the names an integration wires by string against the bridge.
   */
  public List<String[]> hooks() {
    List<String[]> hooks = new ArrayList<String[]>();
    for (TypeRule rule : rules) {
      for (MethodRule method : rule.methods) {
        hooks.addAll(method.advice.hooks());
      }
    }
    return hooks;
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

  /**
   * Whether a rule could weave the class {@code internalName} with {@code header} at all: its name
   * passes a rule's name tests and it declares a method that rule weaves. Most classes do not, and
   * then their ancestry (which may mean reading the class files of ancestors not loaded yet) is
   * never needed.
   */
  boolean couldWeave(String internalName, ClassHeader header) {
    for (TypeRule rule : rules) {
      if (rule.named(internalName) && header.declaresAny(rule.weavable)) {
        return true;
      }
    }
    return false;
  }
}
