package io.levee.rules.policy.adaptive;

/** A CPU load that changes only when told to: for tests, simulations and benchmarks. */
public final class ManualCpu implements CpuSource {
  private volatile double load;

  public ManualCpu(double load) {
    this.load = load;
  }

  public void set(double load) {
    this.load = load;
  }

  @Override
  public double cpuLoad() {
    return load;
  }
}
