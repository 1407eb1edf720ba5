package io.levee.rules.match;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code method} resources of a rule set, compiled for the weaver (SPEC §5.2): which classes
 * and methods each names. The weaver asks it once per class it loads or retransforms, never per
 * call. Index {@code k} is the k-th method resource in file order. Immutable; two plans are equal
 * when they name the same resources with the same matches in the same order, so they weave the
 * same.
 */
public final class MethodPlan {
  public static final MethodPlan EMPTY = new MethodPlan(new ArrayList<ResourceRule>());

  private final String[] names;
  private final Match[] matches;
  private final Pattern[][] classes;
  private final Pattern[][] methods;

  private MethodPlan(List<ResourceRule> rules) {
    int n = rules.size();
    names = new String[n];
    matches = new Match[n];
    classes = new Pattern[n][];
    methods = new Pattern[n][];
    for (int k = 0; k < n; k++) {
      ResourceRule rule = rules.get(k);
      MethodMatch m = rule.match.method;
      names[k] = rule.name;
      matches[k] = rule.match;
      classes[k] = compile(m.classes, true);
      methods[k] = compile(m.methods, false);
    }
  }

  /** The method resources of {@code rules}, in file order. */
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
    for (Pattern p : classes[k]) {
      if (p.matcher(type).matches()) {
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
    for (Pattern p : methods[k]) {
      if (p.matcher(method).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * A pattern as a regular expression: in a class name {@code **} spans package segments ({@code
   * a.**.B} also matches {@code a.B}) and {@code *} stays within one; in a method name {@code *} is
   * any run of characters.
   */
  static Pattern compile(String glob, boolean className) {
    StringBuilder re = new StringBuilder();
    int n = glob.length();
    for (int i = 0; i < n; i++) {
      char c = glob.charAt(i);
      if (c == '*') {
        if (className && i + 1 < n && glob.charAt(i + 1) == '*') {
          i++;
          if (i + 1 < n && glob.charAt(i + 1) == '.') {
            i++;
            re.append("(?:[^.]*\\.)*");
          } else {
            re.append(".*");
          }
        } else {
          re.append(className ? "[^.]*" : ".*");
        }
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString());
  }

  private static Pattern[] compile(List<String> globs, boolean className) {
    Pattern[] compiled = new Pattern[globs.size()];
    for (int i = 0; i < compiled.length; i++) {
      compiled[i] = compile(globs.get(i), className);
    }
    return compiled;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof MethodPlan)) {
      return false;
    }
    MethodPlan p = (MethodPlan) o;
    return java.util.Arrays.equals(names, p.names) && java.util.Arrays.equals(matches, p.matches);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(names) + java.util.Arrays.hashCode(matches);
  }
}
