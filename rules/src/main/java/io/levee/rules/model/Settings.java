package io.levee.rules.model;

/** {@code settings:} of the rules file. */
public final class Settings {
  public static final Settings DEFAULT =
      new Settings(Defaults.MODE, Defaults.RELOAD_NANOS, Defaults.MAX_KEYS, null);

  public final Mode mode;

  /** How often the file is checked for changes; 0 turns reloading off. */
  public final long reloadNanos;

  /** Cap on per-key state of each keyed rate limit. */
  public final int maxKeys;

  /** {@code cluster}, or null when the file has none (no resource may then be cluster-scoped). */
  public final ClusterSettings cluster;

  public Settings(Mode mode, long reloadNanos, int maxKeys) {
    this(mode, reloadNanos, maxKeys, null);
  }

  public Settings(Mode mode, long reloadNanos, int maxKeys, ClusterSettings cluster) {
    this.mode = mode;
    this.reloadNanos = reloadNanos;
    this.maxKeys = maxKeys;
    this.cluster = cluster;
  }
}
