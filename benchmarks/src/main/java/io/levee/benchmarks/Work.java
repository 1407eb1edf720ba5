package io.levee.benchmarks;

import org.openjdk.jmh.infra.Blackhole;

/**
 * The protected call of every benchmark. It is kept to a few nanoseconds so that what a contender
 * adds to {@link NoProtection} is its own cost; {@code consumeCPU} is a loop the JIT cannot remove.
 */
final class Work {
  static final long TOKENS = 4;

  private Work() {}

  static void run() {
    Blackhole.consumeCPU(TOKENS);
  }
}
