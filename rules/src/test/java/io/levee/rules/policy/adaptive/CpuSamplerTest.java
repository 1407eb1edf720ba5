package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.levee.rules.time.ManualClock;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CpuSamplerTest {
  private static final long PERIOD = CpuSampler.PERIOD_MILLIS * 1_000_000L;
  private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

  private final ManualClock clock = new ManualClock();
  private final AtomicLong cpuTime = new AtomicLong();
  private final CpuSampler sampler = new CpuSampler(cpuTime::get, clock);

  @Test
  void readsCpuTimeOverWallTimePerProcessor() {
    runFor(100, 0.5);
    assertThat(sampler.sampleLoad()).isCloseTo(0.5, within(0.001));
  }

  @Test
  void smoothsWithATimeConstantOfAFifthOfASecond() {
    runFor(4, 1.0); // a fifth of a second of a fully busy process, from idle
    assertThat(sampler.sampleLoad()).isCloseTo(1 - Math.exp(-1), within(0.01));
  }

  @Test
  void clampsReadingsToOne() {
    runFor(100, 3.0);
    assertThat(sampler.sampleLoad()).isLessThanOrEqualTo(1.0).isGreaterThan(0.99);
  }

  @Test
  void staysZeroWhenCpuTimeIsUnknown() {
    cpuTime.set(-1);
    for (int i = 0; i < 20; i++) {
      sampler.sampleOnce();
      clock.advanceNanos(PERIOD);
    }
    assertThat(sampler.sampleLoad()).isZero();
  }

  @Test
  void startsOneDaemonThreadOnFirstReadAndCloseStopsIt() throws Exception {
    CpuSampler real = new CpuSampler();
    assertThat(real.thread()).isNull();
    double load = real.cpuLoad();
    Thread thread = real.thread();
    assertThat(load).isBetween(0.0, 1.0);
    assertThat(thread.getName()).isEqualTo("levee-cpu");
    assertThat(thread.isDaemon()).isTrue();
    real.cpuLoad();
    assertThat(real.thread()).isSameAs(thread);
    real.close();
    thread.join(10_000);
    assertThat(thread.isAlive()).isFalse();
    assertThat(real.cpuLoad()).isBetween(0.0, 1.0);
    assertThat(real.thread()).isNull();
  }

  private void runFor(int periods, double busyProcessors) {
    sampler.sampleOnce();
    for (int i = 0; i < periods; i++) {
      clock.advanceNanos(PERIOD);
      cpuTime.addAndGet((long) (PERIOD * busyProcessors * PROCESSORS));
      sampler.sampleOnce();
    }
  }
}
