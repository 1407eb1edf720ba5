package io.levee.bootstrap.method;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.Sneaky;

/**
 * The hooks woven around a method a {@code method} resource protects (SPEC §5.2). The woven method
 * becomes:
 *
 * <pre>
 *   Object token = MethodHooks.enter(SITE);          // throws on-block.throw when blocked
 *   long start = Levee.start(token);
 *   try { original body; return exit(token, start, result); }
 *   catch (Throwable t) { throw thrown(token, start, t); }
 * </pre>
 *
 * {@code SITE} is a constant the agent gave the method when it wove it; the agent knows which
 * resources it may belong to, so nothing is matched by name here.
 */
public final class MethodHooks {
  private MethodHooks() {}

  /**
   * The decision for a call of site {@code site}: a token for {@link #exit}, or, when blocked, the
   * exception the resource names, thrown.
   */
  public static Object enter(int site) {
    Object token;
    try {
      Faults.at(Faults.METHOD_ENTER);
      token = Levee.methodEnter(site);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
    if (token instanceof Blocked) {
      throw Sneaky.raise(Levee.methodBlocked(site, (Blocked) token));
    }
    if (token instanceof Permit) {
      // Here rather than in the engine, so that the call closes whatever dispatcher its end meets.
      OpenMethods.open(((Permit) token).resourceId);
    }
    return token;
  }

  /** A return: the outcome is a success; {@code result} goes back unchanged. */
  public static Object exit(Object token, long start, Object result) {
    done(token, start, null);
    return result;
  }

  /** An exception ended the call: it is the outcome, and is thrown on unchanged. */
  public static Throwable thrown(Object token, long start, Throwable error) {
    done(token, start, error);
    return error;
  }

  private static void done(Object token, long start, Throwable error) {
    if (!(token instanceof Permit)) {
      return;
    }
    OpenMethods.close(((Permit) token).resourceId);
    try {
      Levee.methodExit(token, start, error);
      // After the outcome: what fails here leaves the permit returned and the call's answer alone.
      Faults.at(Faults.METHOD_EXIT);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }
}
