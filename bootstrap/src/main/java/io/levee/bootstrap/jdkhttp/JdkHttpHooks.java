package io.levee.bootstrap.jdkhttp;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.http.HttpAnswer;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the woven methods of the JDK's {@code java.net.http.HttpClient} implementation call. Every
 * {@code send} and {@code sendAsync} ends in one private {@code sendAsync} of {@code
 * jdk.internal.net.http.HttpClientImpl}, which returns the future of the response: the call is
 * decided at its entry, on the caller's thread, and its outcome is reported when that future
 * completes, on whatever thread completes it. What needs the client's types is in the {@link
 * JdkHttpCalls} the agent defines beside the {@code java.net.http} module.
 *
 * <p>A blocked call never runs the original method: it returns a future already completed, with the
 * fallback's response or with an {@code IOException} whose message starts {@code levee:} (and
 * {@code send}, which waits on that future, throws an {@code IOException} with that message).
 *
 * <p>Timeouts: while an admitted call is inside {@code sendAsync} on its caller's thread, the
 * client builds the request it sends (reading the application's request's {@code timeout()}) and
 * the exchange (reading the client's {@code connectTimeout()}); those two methods are woven too,
 * and answer the permit's timeouts where they would answer empty. The thread-local that carries the
 * permit there is set and cleared within that one method call.
 *
 * <p>Fails open: an error of our own is reported, and the call runs untracked.
 */
public final class JdkHttpHooks {
  private static final JdkHttpCalls NONE =
      new JdkHttpCalls() {
        @Override
        public Object enter(Object request) {
          return null;
        }

        @Override
        public void track(Object future, Object permit, long start, Object request) {}

        @Override
        public Object fallback(Object request, Object handler, HttpAnswer answer) {
          return null;
        }
      };

  private static final SiteCalls<JdkHttpCalls> CALLS = new SiteCalls<JdkHttpCalls>(NONE);

  /** The permit of the call inside {@code sendAsync} on this thread, when it has timeouts. */
  private static final ThreadLocal<Permit> TIMEOUTS = new ThreadLocal<Permit>();

  private JdkHttpHooks() {}

  /** Installed by the agent before it weaves the client. */
  public static void install(SiteCalls.Factory<JdkHttpCalls> factory) {
    CALLS.install(factory);
  }

  /** Enter of {@code sendAsync}: the token, a {@link Blocked} one skipping the original. */
  public static Object enter(Class<?> site, Object request) {
    try {
      if (CallDepth.enter(Kind.HTTP) != 0) {
        return null;
      }
      Faults.at(Faults.HTTP_ENTER);
      Object token = CALLS.get(site).enter(request);
      if (token instanceof Permit) {
        Permit permit = (Permit) token;
        if (permit.connectTimeoutMillis > 0 || permit.readTimeoutMillis > 0) {
          TIMEOUTS.set(permit);
        }
      }
      return token;
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /**
   * Normal end of {@code sendAsync}, or its skip: the future it returns, or, for a blocked call, a
   * completed one in its place.
   */
  public static Object exit(
      Object token, long start, Class<?> site, Object request, Object handler, Object returned) {
    if (!outermost()) {
      return returned;
    }
    if (token instanceof Blocked) {
      return blocked((Blocked) token, site, request, handler);
    }
    if (token instanceof Permit) {
      try {
        CALLS.get(site).track(returned, token, start, request);
      } catch (Throwable t) {
        HookErrors.report(t);
        // Nothing will report this call's outcome: its permit goes back now.
        Levee.exit(token, start, Dispatcher.STATUS_ABANDONED, null);
      }
    }
    return returned;
  }

  /** {@code sendAsync} threw (a bad request): the call ends with it. */
  public static Throwable thrown(
      Object token, long start, Class<?> site, Object request, Object handler, Throwable thrown) {
    if (outermost()) {
      Levee.exit(token, start, -1, thrown);
    }
    return thrown;
  }

  /**
   * Exit of the application's request's {@code timeout()}: the permit's read timeout when the
   * request has none and an admitted call is being set up on this thread.
   */
  public static Object requestTimeout(Object token, Object returned) {
    try {
      Permit permit = TIMEOUTS.get();
      if (permit != null && permit.readTimeoutMillis > 0 && isEmpty(returned)) {
        return Optional.of(Duration.ofMillis(permit.readTimeoutMillis));
      }
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  /**
   * Exit of the client's {@code connectTimeout()}: the permit's connect timeout when the client has
   * none and an admitted call is being set up on this thread.
   */
  public static Object connectTimeout(Object token, Object returned) {
    try {
      Permit permit = TIMEOUTS.get();
      if (permit != null && permit.connectTimeoutMillis > 0 && isEmpty(returned)) {
        return Optional.of(Duration.ofMillis(permit.connectTimeoutMillis));
      }
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  /** Leaves the call depth; true for the outermost call, whose timeouts are then forgotten. */
  private static boolean outermost() {
    try {
      if (CallDepth.exit(Kind.HTTP) != 0) {
        return false;
      }
      TIMEOUTS.remove();
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return true;
  }

  private static Object blocked(Blocked blocked, Class<?> site, Object request, Object handler) {
    if (blocked.fallback) {
      try {
        Object answered = CALLS.get(site).fallback(request, handler, HttpAnswer.of(blocked));
        if (answered != null) {
          return answered;
        }
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
    CompletableFuture<Object> failed = new CompletableFuture<Object>();
    failed.completeExceptionally(new IOException(blocked.message));
    return failed;
  }

  private static boolean isEmpty(Object optional) {
    return optional instanceof Optional && !((Optional<?>) optional).isPresent();
  }
}
