package io.levee.rules.engine;

import io.levee.rules.policy.CircuitBreaker;
import io.levee.rules.policy.adaptive.LimitTrace;

/**
 * Hands the engine's {@link Engine.Listener} to the policies that have something to tell it: each
 * circuit breaker and each adaptive limit gets a relay made once, with its resource's name, that
 * reads the listener in force whenever it speaks, so a listener set or cleared later (start,
 * detach) reaches the runtimes already built.
 *
 * <p>Concurrency: the listener is a volatile field, written by the agent's lifecycle and read by
 * whichever application thread moved a breaker or closed a window.
 */
final class ListenerRelay {
  private volatile Engine.Listener listener;

  void set(Engine.Listener listener) {
    this.listener = listener;
  }

  /** The trace of the adaptive limit of {@code resource}: the listener, if it wants it. */
  LimitTrace limitTrace(final String resource) {
    return new LimitTrace() {
      @Override
      public boolean tracing() {
        Engine.Listener l = listener;
        return l != null && l.tracesLimits();
      }

      @Override
      public void windowClosed(String line) {
        Engine.Listener l = listener;
        if (l != null) {
          l.onLimitWindow(resource, line);
        }
      }
    };
  }

  CircuitBreaker.Listener breakerListener(final String resource, final boolean monitor) {
    return new CircuitBreaker.Listener() {
      @Override
      public void onTransition(int from, int to, String why) {
        Engine.Listener l = listener;
        if (l != null) {
          l.onTransition(resource, monitor, from, to, why);
        }
      }
    };
  }
}
