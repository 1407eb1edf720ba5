package io.levee.agent.instrument;

import java.util.ArrayList;
import java.util.List;

/**
 * The advice woven around a method: which hooks it calls, all static methods of one class of the
 * bridge (boot loader, so every class can call them), with which arguments, and when the original
 * is skipped. Words used throughout the agent: a <em>hook</em> is such a static method of the
 * bridge ({@code bootstrap/<kind>/*Hooks}); an <em>advice</em> says where woven code calls hooks;
 * the <em>calls</em> of an integration ({@code *Calls}) are the logic the hooks hand a call to. The
 * woven method becomes:
 *
 * <pre>
 *   Object token = enter(enterArgs...);                  // or null without an enter method
 *   long start = Levee.start(token);                     // only if timed
 *   if (skip says so) return exit(token, [start,] exitArgs..., null);
 *   try {
 *     original body, each return r becoming:  return exit(token, [start,] exitArgs..., r);
 *   } catch (Throwable t) {
 *     throw thrown(token, [start,] exitArgs..., t);      // only with a thrown method
 *   }                                                    // (recovers: a null returns instead)
 * </pre>
 *
 * <p>{@code exit} takes and returns {@code Object}: it may replace a reference return value (a
 * fallback's stream); for a primitive or void method it gets null and its result is dropped. The
 * exit arguments are the values at entry, kept in locals of their own, so a method that reuses an
 * argument's slot cannot confuse them. An enter method may throw (a blocked JDBC call), as may an
 * exit method (a blocked HTTP call); they throw nothing else: the bridge catches its own errors.
 */
public final class Advice {
  /** When the original is skipped, judged on the enter method's token. */
  public enum Skip {
    NEVER,
    IF_NON_NULL,
    IF_BLOCKED
  }

  final String owner;
  final String enter;
  final Pass[] enterArgs;
  final boolean timed;
  final Skip skip;
  final String exit;
  final String thrown;
  final Pass[] exitArgs;

  /** Whether a null from {@code thrown} ends a void method normally instead of throwing. */
  final boolean recovers;

  private Advice(
      String owner,
      String enter,
      Pass[] enterArgs,
      boolean timed,
      Skip skip,
      String exit,
      String thrown,
      Pass[] exitArgs,
      boolean recovers) {
    this.owner = owner;
    this.enter = enter;
    this.enterArgs = enterArgs;
    this.timed = timed;
    this.skip = skip;
    this.exit = exit;
    this.thrown = thrown;
    this.exitArgs = exitArgs;
    this.recovers = recovers;
  }

  /**
   * Advice calling hooks that are static methods of {@code owner} (a binary name of the bridge).
   */
  public static Advice in(String owner) {
    return new Advice(
        owner.replace('.', '/'),
        null,
        new Pass[0],
        false,
        Skip.NEVER,
        null,
        null,
        new Pass[0],
        false);
  }

  public Advice enter(String method, Pass... args) {
    return new Advice(owner, method, args, timed, skip, exit, thrown, exitArgs, recovers);
  }

  /** The exit methods also get {@code Levee.start(token)}, after the token. */
  public Advice timed() {
    return new Advice(owner, enter, enterArgs, true, skip, exit, thrown, exitArgs, recovers);
  }

  public Advice skip(Skip when) {
    return new Advice(owner, enter, enterArgs, timed, when, exit, thrown, exitArgs, recovers);
  }

  /** {@code exit} after a return (or a skip); {@code thrown}, if not null, after an exception. */
  public Advice exit(String exit, String thrown, Pass... args) {
    return new Advice(owner, enter, enterArgs, timed, skip, exit, thrown, args, recovers);
  }

  /**
   * The thrown method may return null to end the method normally, for a void method only: the
   * exception has been answered (a servlet request's backpressure answer). Any other method throws
   * what it returns, as without this.
   */
  public Advice recovers() {
    return new Advice(owner, enter, enterArgs, timed, skip, exit, thrown, exitArgs, true);
  }

  /** The start hook a timed advice calls after its enter method. */
  static final String START_OWNER = "io/levee/bootstrap/Levee";

  static final String START = "start";
  static final String START_DESCRIPTOR = "(Ljava/lang/Object;)J";

  String enterDescriptor() {
    return descriptor(enterArgs, null, timed);
  }

  String exitDescriptor() {
    return descriptor(exitArgs, "Ljava/lang/Object;", timed);
  }

  String thrownDescriptor() {
    return descriptor(exitArgs, "Ljava/lang/Throwable;", timed)
        .replace(")Ljava/lang/Object;", ")Ljava/lang/Throwable;");
  }

  /**
   * Every hook the woven code calls, as {owner, name, descriptor} with the owner an internal name:
   * what the bridge must have, exactly as the weaver writes it.
   */
  List<String[]> hooks() {
    List<String[]> hooks = new ArrayList<String[]>(4);
    if (enter != null) {
      hooks.add(new String[] {owner, enter, enterDescriptor()});
    }
    if (timed && !enterOnly()) {
      hooks.add(new String[] {START_OWNER, START, START_DESCRIPTOR});
    }
    if (exit != null) {
      hooks.add(new String[] {owner, exit, exitDescriptor()});
    }
    if (thrown != null) {
      hooks.add(new String[] {owner, thrown, thrownDescriptor()});
    }
    return hooks;
  }

  /** Only an enter method, whose result is dropped: nothing else of the method changes. */
  boolean enterOnly() {
    return exit == null && thrown == null && skip == Skip.NEVER;
  }

  /**
   * A bridge method's descriptor: {@code (token, [long,] args..., last)Ljava/lang/Object;}, or
   * {@code (args...)Ljava/lang/Object;} without a last.
   */
  static String descriptor(Pass[] passes, String last, boolean timed) {
    StringBuilder d = new StringBuilder("(");
    if (last != null) {
      d.append("Ljava/lang/Object;");
      if (timed) {
        d.append('J');
      }
    }
    for (Pass p : passes) {
      d.append(p.descriptor);
    }
    if (last != null) {
      d.append(last);
    }
    return d.append(")Ljava/lang/Object;").toString();
  }

  /** A value the woven code passes to a bridge method. */
  public static final class Pass {
    enum Kind {
      THIS,
      ARG,
      ARG_OR_NULL,
      SITE,
      INT_FIELD,
      CONSTANT
    }

    final Kind kind;
    final String descriptor;
    final int index;
    final String field;

    private Pass(Kind kind, String descriptor, int index, String field) {
      this.kind = kind;
      this.descriptor = descriptor;
      this.index = index;
      this.field = field;
    }

    /** {@code this}, as the bridge method's parameter type (an internal name). */
    public static Pass self(String type) {
      return new Pass(Kind.THIS, "L" + type.replace('.', '/') + ";", 0, null);
    }

    /** Argument {@code index} as an {@code Object}. */
    public static Pass arg(int index) {
      return new Pass(Kind.ARG, "Ljava/lang/Object;", index, null);
    }

    /** Argument {@code index} of type int. */
    public static Pass intArg(int index) {
      return new Pass(Kind.ARG, "I", index, null);
    }

    /** The first argument as an {@code Object}, or null for a method without arguments. */
    public static Pass firstArgOrNull() {
      return new Pass(Kind.ARG_OR_NULL, "Ljava/lang/Object;", 0, null);
    }

    /** {@code this.getClass()}: the class whose loader sees the API the method implements. */
    public static Pass site() {
      return new Pass(Kind.SITE, "Ljava/lang/Class;", 0, null);
    }

    /** The int field {@code name} of {@code this}, declared in the class or a super class. */
    public static Pass intField(String name) {
      return new Pass(Kind.INT_FIELD, "I", 0, name);
    }

    public static Pass constant(int value) {
      return new Pass(Kind.CONSTANT, "I", value, null);
    }

    boolean needsThis() {
      return kind == Kind.THIS || kind == Kind.SITE || kind == Kind.INT_FIELD;
    }
  }
}
