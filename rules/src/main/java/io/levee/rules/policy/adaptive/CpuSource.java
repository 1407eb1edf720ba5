package io.levee.rules.policy.adaptive;

/**
 * The smoothed process CPU load the adaptive limits read: 0..1 of the processors the JVM may use.
 */
public interface CpuSource {
  /** For processes whose CPU time cannot be read: the CPU guard never engages. */
  CpuSource UNKNOWN =
      new CpuSource() {
        @Override
        public double cpuLoad() {
          return 0;
        }
      };

  /** 0 (idle or unknown) to 1 (every available processor busy), already smoothed. */
  double cpuLoad();
}
