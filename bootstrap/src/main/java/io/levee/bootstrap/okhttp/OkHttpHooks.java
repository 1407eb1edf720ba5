package io.levee.bootstrap.okhttp;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.Sneaky;
import java.io.IOException;

/**
 * What the woven {@code okhttp3.internal.http.RetryAndFollowUpInterceptor.intercept} calls: the one
 * place every OkHttp call (3.14 to 5.x) goes through once, on the thread that runs it (the caller's
 * for {@code execute}, a dispatcher thread for {@code enqueue}), with OkHttp's own retries and
 * redirects inside it. The logic that needs OkHttp's types is an {@link OkHttpCalls} per class
 * loader, found once per woven class.
 *
 * <p>The woven code skips the original when {@link #enter} returns a {@link Blocked} token; {@link
 * #exit} then answers with the fallback response or throws the {@code levee:} {@link IOException},
 * which OkHttp hands to the caller of {@code execute} or to {@code Callback.onFailure}. An admitted
 * call reports its outcome when {@code intercept} returns (the response headers have arrived) or
 * throws. Fails open like all of the bridge: an error of the calls is reported and the call runs
 * unprotected.
 */
public final class OkHttpHooks {
  private static final OkHttpCalls NONE =
      new OkHttpCalls() {
        @Override
        public Object enter(Object chain) {
          return null;
        }

        @Override
        public Object fallback(Object chain, Blocked blocked) {
          return null;
        }

        @Override
        public int status(Object response) {
          return -1;
        }

        @Override
        public Object keepLastGood(Object chain, Object permit, Object response) {
          return response;
        }
      };

  private static final SiteCalls<OkHttpCalls> CALLS = new SiteCalls<OkHttpCalls>(NONE);

  private OkHttpHooks() {}

  /** Installed by the agent before it weaves OkHttp. */
  public static void install(SiteCalls.Factory<OkHttpCalls> factory) {
    CALLS.install(factory);
  }

  /** Entry of {@code intercept}: the decision of the outermost HTTP call on this thread. */
  public static Object enter(Class<?> site, Object chain) {
    try {
      if (CallDepth.enter(Kind.HTTP) != 0) {
        return null;
      }
      return CALLS.get(site).enter(chain);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /** {@code intercept} returned {@code returned}, or was skipped for a {@link Blocked} token. */
  public static Object exit(
      Object token, long start, Class<?> site, Object chain, Object returned) {
    leave();
    if (token instanceof Blocked) {
      // The original was skipped: a response or an exception, never null.
      Blocked blocked = (Blocked) token;
      Object fallback = blocked.fallback ? fallback(site, chain, blocked) : null;
      if (fallback != null) {
        return fallback;
      }
      throw Sneaky.raise(new IOException(blocked.message));
    }
    if (!(token instanceof Permit)) {
      return returned;
    }
    OkHttpCalls calls = CALLS.get(site);
    int status = Dispatcher.STATUS_ABANDONED;
    try {
      status = calls.status(returned);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    Levee.exit(token, start, status, null);
    if (!Levee.keepsLastGood(token)) {
      return returned;
    }
    try {
      return calls.keepLastGood(chain, token, returned);
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  /** {@code intercept} threw {@code thrown}, which the woven code throws on. */
  public static Throwable thrown(
      Object token, long start, Class<?> site, Object chain, Throwable thrown) {
    leave();
    Levee.exit(token, start, -1, thrown);
    return thrown;
  }

  private static void leave() {
    try {
      CallDepth.exit(Kind.HTTP);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }

  /** The fallback response, or null when it cannot be built (the call then fails as blocked). */
  private static Object fallback(Class<?> site, Object chain, Blocked blocked) {
    try {
      return CALLS.get(site).fallback(chain, blocked);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }
}
