package io.levee.rules.model;

/**
 * {@code adaptive:} with defaults applied; {@code min <= initial <= max}, checked by the loader.
 */
public final class AdaptiveSpec {
  public final int minLimit;
  public final int maxLimit;
  public final int initialLimit;

  /** Process CPU load (0..1) above which the limit must come down. */
  public final double cpuTarget;

  public AdaptiveSpec(int minLimit, int maxLimit, int initialLimit, double cpuTarget) {
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.initialLimit = initialLimit;
    this.cpuTarget = cpuTarget;
  }

  public static AdaptiveSpec defaults() {
    return new AdaptiveSpec(
        Defaults.ADAPTIVE_MIN_LIMIT,
        Defaults.ADAPTIVE_MAX_LIMIT,
        Defaults.ADAPTIVE_INITIAL_LIMIT,
        Defaults.ADAPTIVE_CPU_TARGET);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AdaptiveSpec)) {
      return false;
    }
    AdaptiveSpec s = (AdaptiveSpec) o;
    return minLimit == s.minLimit
        && maxLimit == s.maxLimit
        && initialLimit == s.initialLimit
        && cpuTarget == s.cpuTarget;
  }

  @Override
  public int hashCode() {
    return Values.hash(minLimit, maxLimit, initialLimit, cpuTarget);
  }
}
