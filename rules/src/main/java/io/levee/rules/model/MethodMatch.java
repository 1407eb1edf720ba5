package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

/**
 * {@code match.method} (SPEC §5.2): the classes a resource protects, by name pattern (a class, or
 * an interface or superclass its implementations extend), the methods of theirs, and a class-level
 * annotation they must carry.
 */
public final class MethodMatch {
  /** Class name patterns, binary names with dots ({@code com.acme.**.*Client}); never empty. */
  public final List<String> classes;

  /** Method name patterns; empty: every public method the named class or interface declares. */
  public final List<String> methods;

  /** The binary name of a class-level annotation the class must carry, or null. */
  public final String annotated;

  /**
   * Where {@code match.method} is written (1-based), so that a check the agent makes against the
   * loaded classes can point at it; 0 when not known. Not part of equality.
   */
  public final int line;

  public final int column;

  public MethodMatch(List<String> classes, List<String> methods, String annotated) {
    this(classes, methods, annotated, 0, 0);
  }

  public MethodMatch(
      List<String> classes, List<String> methods, String annotated, int line, int column) {
    this.classes = Collections.unmodifiableList(classes);
    this.methods = Collections.unmodifiableList(methods);
    this.annotated = annotated;
    this.line = line;
    this.column = column;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof MethodMatch)) {
      return false;
    }
    MethodMatch m = (MethodMatch) o;
    return classes.equals(m.classes)
        && methods.equals(m.methods)
        && Values.eq(annotated, m.annotated);
  }

  @Override
  public int hashCode() {
    return Values.hash(classes, methods, annotated);
  }
}
