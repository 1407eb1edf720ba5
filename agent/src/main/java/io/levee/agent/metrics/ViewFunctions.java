package io.levee.agent.metrics;

import io.levee.rules.engine.Outcome;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.model.Mode;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The functions meters call to read a {@link ResourceView} when they are scraped. Plain classes
 * rather than lambdas: the agent keeps invokedynamic out of what may run early in a JVM's life.
 */
final class ViewFunctions {
  private ViewFunctions() {}

  static final ToDoubleFunction<ResourceView> IN_FLIGHT =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.inFlight();
        }
      };

  static final ToDoubleFunction<ResourceView> LIMIT =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.limit();
        }
      };

  static final ToDoubleFunction<ResourceView> BREAKER_STATE =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.breakerState();
        }
      };

  static final ToDoubleFunction<ResourceView> KEYS_EVICTED =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.keysEvicted();
        }
      };

  static final ToDoubleFunction<ResourceView> CLUSTER_INSTANCES =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return Math.max(0, v.clusterInstances());
        }
      };

  static final ToDoubleFunction<ResourceView> LAST_GOOD_KEPT =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.lastGoodKept();
        }
      };

  /** Requests answered with backpressure, in the view's own mode. */
  static ToDoubleFunction<ResourceView> backpressured(ResourceView view) {
    final boolean monitor = view.mode() == Mode.MONITOR;
    return new ToDoubleFunction<ResourceView>() {
      @Override
      public double applyAsDouble(ResourceView v) {
        return v.backpressured(monitor);
      }
    };
  }

  /** Blocked http calls answered with the last good answer of their URL, or the static one. */
  static ToDoubleFunction<ResourceView> fallbacks(final boolean lastGood) {
    return new ToDoubleFunction<ResourceView>() {
      @Override
      public double applyAsDouble(ResourceView v) {
        return v.fallbacks(lastGood);
      }
    };
  }

  static final ToLongFunction<ResourceView> DURATION_COUNT =
      new ToLongFunction<ResourceView>() {
        @Override
        public long applyAsLong(ResourceView v) {
          return v.durationCount();
        }
      };

  static final ToDoubleFunction<ResourceView> DURATION_SUM =
      new ToDoubleFunction<ResourceView>() {
        @Override
        public double applyAsDouble(ResourceView v) {
          return v.durationSumNanos();
        }
      };

  static final TimeUnit DURATION_UNIT = TimeUnit.NANOSECONDS;

  static ToDoubleFunction<ResourceView> calls(final Outcome outcome) {
    return new ToDoubleFunction<ResourceView>() {
      @Override
      public double applyAsDouble(ResourceView v) {
        return v.calls(outcome);
      }
    };
  }

  /** {@code monitor}: the calls monitor mode let through that {@code reason} would have blocked. */
  static ToDoubleFunction<ResourceView> blocked(final Reason reason, final boolean monitor) {
    return new ToDoubleFunction<ResourceView>() {
      @Override
      public double applyAsDouble(ResourceView v) {
        return monitor ? v.wouldBlock(reason) : v.blocked(reason);
      }
    };
  }
}
