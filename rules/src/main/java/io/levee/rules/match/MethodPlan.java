package io.levee.rules.match;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code method} resources of a rule set, compiled for the weaver (SPEC §5.2): which classes
 * and methods each names. The weaver asks it once per class it loads or retransforms, never per
 * call. Index {@code k} is the k-th method resource in file order. Immutable; two plans are equal
 * when they name the same resources with the same matches in the same order, so they weave the
 * same.
 *
 * <p>Patterns mean what {@link ClassPattern} and {@link MethodNamePattern} say; the loader compiles
 * the same ones, so what it accepts and what is woven are one grammar.
 */
public final class MethodPlan {
  public static final MethodPlan EMPTY = new MethodPlan(new ArrayList<ResourceRule>());

  private final String[] names;
  private final Match[] matches;
  private final ClassPattern[][] classes;
  private final MethodNamePattern[][] methods;

  private MethodPlan(List<ResourceRule> rules) {
    int n = rules.size();
    names = new String[n];
    matches = new Match[n];
    classes = new ClassPattern[n][];
    methods = new MethodNamePattern[n][];
    for (int k = 0; k < n; k++) {
      ResourceRule rule = rules.get(k);
      MethodMatch m = rule.match.method;
      names[k] = rule.name;
      matches[k] = rule.match;
      classes[k] = new ClassPattern[m.classes.size()];
      for (int i = 0; i < classes[k].length; i++) {
        classes[k][i] = ClassPattern.compile(m.classes.get(i));
      }
      methods[k] = new MethodNamePattern[m.methods.size()];
      for (int i = 0; i < methods[k].length; i++) {
        methods[k][i] = MethodNamePattern.compile(m.methods.get(i));
      }
    }
  }

  /**
   * The method resources of {@code rules}, in file order.
   *
   * @throws PatternException when a pattern is invalid (the loader compiles the same patterns, so
   *     this only happens to rules it did not build)
   */
  public static MethodPlan of(RuleSet rules) {
    List<ResourceRule> method = new ArrayList<ResourceRule>();
    for (ResourceRule rule : rules.resources) {
      if (rule.match.kind == CallKind.METHOD && rule.match.method != null) {
        method.add(rule);
      }
    }
    return method.isEmpty() ? EMPTY : new MethodPlan(method);
  }

  public boolean isEmpty() {
    return names.length == 0;
  }

  public int size() {
    return names.length;
  }

  public String name(int k) {
    return names[k];
  }

  public Match match(int k) {
    return matches[k];
  }

  /** Whether a class pattern of resource {@code k} names {@code type} itself (a binary name). */
  public boolean names(int k, String type) {
    for (ClassPattern p : classes[k]) {
      if (p.matches(type)) {
        return true;
      }
    }
    return false;
  }

  /** The class-level annotation resource {@code k} asks for (a binary name), or null. */
  public String annotated(int k) {
    return matches[k].method.annotated;
  }

  /**
   * Whether resource {@code k} lists its methods; when not, it protects the public methods that the
   * class or interface its pattern names declares.
   */
  public boolean listsMethods(int k) {
    return methods[k].length > 0;
  }

  /** Whether a method pattern of resource {@code k} matches {@code method}; true if none listed. */
  public boolean methodNamed(int k, String method) {
    if (methods[k].length == 0) {
      return true;
    }
    for (MethodNamePattern p : methods[k]) {
      if (p.matches(method)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof MethodPlan)) {
      return false;
    }
    MethodPlan p = (MethodPlan) o;
    return Arrays.equals(names, p.names) && Arrays.equals(matches, p.matches);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(names) + Arrays.hashCode(matches);
  }
}
