package io.levee.agent.method;

import io.levee.rules.match.MethodPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * Which methods of one class being defined the method resources take, from its class file and its
 * ancestors' ({@link Ancestry}): the matching of SPEC §5.2, made once per class, never per call.
 */
final class ClassMatch {
  private final MethodPlan plan;
  private final TypeFacts self;

  /**
   * Per resource: the types (the class and its ancestors) its class patterns name; may be empty.
   */
  private final List<List<TypeFacts>> named;

  private ClassMatch(MethodPlan plan, TypeFacts self, List<List<TypeFacts>> named) {
    this.plan = plan;
    this.self = self;
    this.named = named;
  }

  /** The match of {@code self}, a class (not an interface) {@code loader} is defining, or null. */
  static ClassMatch of(MethodPlan plan, Ancestry ancestry, ClassLoader loader, TypeFacts self) {
    List<TypeFacts> ancestors = null;
    List<List<TypeFacts>> named = new ArrayList<List<TypeFacts>>(plan.size());
    boolean any = false;
    for (int k = 0; k < plan.size(); k++) {
      List<TypeFacts> n = new ArrayList<TypeFacts>(1);
      if (plan.names(k, self.name)) {
        n.add(self);
      }
      // A class named itself needs no ancestry, unless it was generated to stand for another.
      if (ancestors == null && (n.isEmpty() || TypeFacts.generated(self.name))) {
        ancestors = ancestry.ancestors(loader, self);
      }
      if (ancestors != null) {
        for (TypeFacts t : ancestors) {
          if (plan.names(k, t.name)) {
            n.add(t);
          }
        }
      }
      if (!n.isEmpty() && !annotated(ancestry, loader, self, plan.annotated(k))) {
        n.clear();
      }
      any |= !n.isEmpty();
      named.add(n);
    }
    return any ? new ClassMatch(plan, self, named) : null;
  }

  /** The resources (indices in the plan, in file order) that take {@code m}; empty if none. */
  List<Integer> resourcesOf(TypeFacts.Method m) {
    List<Integer> ks = new ArrayList<Integer>(1);
    if (!m.weavable()) {
      return ks;
    }
    for (int k = 0; k < plan.size(); k++) {
      if (takes(k, m)) {
        ks.add(k);
      }
    }
    return ks;
  }

  private boolean takes(int k, TypeFacts.Method m) {
    List<TypeFacts> types = named.get(k);
    if (types.isEmpty()) {
      return false;
    }
    if (plan.listsMethods(k)) {
      return plan.methodNamed(k, m.name);
    }
    // Without a list: the public instance methods the named type declares, under any descriptor
    // the class knows the method by (a generic or covariant override is the bridge's too). A class
    // generated to stand for another has none of its own.
    if (!m.isPublic() || m.isStatic()) {
      return false;
    }
    for (TypeFacts t : types) {
      if (t == self) {
        if (!TypeFacts.generated(self.name)) {
          return true;
        }
        continue;
      }
      for (String descriptor : self.descriptorsOf(m)) {
        if (t.declaresPublic(m.name, descriptor)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean annotated(
      Ancestry ancestry, ClassLoader loader, TypeFacts self, String annotation) {
    if (annotation == null || contains(self.annotations, annotation)) {
      return true;
    }
    for (TypeFacts t : ancestry.superclasses(loader, self)) {
      if (contains(t.annotations, annotation)) {
        return true;
      }
    }
    return false;
  }

  private static boolean contains(String[] names, String name) {
    for (String n : names) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }
}
