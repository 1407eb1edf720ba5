package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.Sneaky;

/**
 * The hooks of one blocking client (Apache HttpClient 4, Apache HttpClient 5 classic), as its own
 * {@code *Hooks} class forwards them: each finds the calls of the woven class and hands the call to
 * {@link BlockingClients}, reporting its own errors and changing nothing because of them. A blocked
 * call without a fallback is the one exception thrown on purpose, from {@link #exit}.
 */
public final class BlockingClientHooks {
  /** The calls of each woven class; the agent installs their factory before it weaves. */
  public final SiteCalls<BlockingClientCalls> calls =
      new SiteCalls<BlockingClientCalls>(BlockingClientCalls.NONE);

  public Object enter(Class<?> site, Object target, Object request) {
    try {
      return BlockingClients.enter(calls.get(site), target, request);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /** Normal end, or the original skipped for a {@link Blocked} token. */
  public Object exit(
      Object token, long start, Class<?> site, Object target, Object request, Object returned) {
    Object response = returned;
    try {
      response = BlockingClients.exit(calls.get(site), token, start, target, request, returned);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    if (response == null && token instanceof Blocked) {
      throw Sneaky.raise(BlockingClients.refusal((Blocked) token));
    }
    return response;
  }

  public Throwable thrown(Object token, long start, Throwable thrown) {
    try {
      BlockingClients.thrown(token, start, thrown);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return thrown;
  }

  /**
   * Exit of a read of the request configuration: the rule's timeouts where it leaves them unset.
   */
  public Object requestConfig(Class<?> site, Object returned) {
    try {
      return BlockingClients.hasTimeouts()
          ? BlockingClients.requestConfig(calls.get(site), returned)
          : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }
}
