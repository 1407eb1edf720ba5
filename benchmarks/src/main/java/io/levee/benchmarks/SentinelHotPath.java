package io.levee.benchmarks;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sentinel doing what {@link LeveeHotPath} does: {@code SphU.entry} and {@code exit} around the
 * work. The combined resource has a QPS flow rule, a thread-count flow rule (Sentinel's concurrency
 * limit) and an exception-ratio degrade rule (its circuit breaker). Sentinel tracks every resource
 * it is asked about, so "no match" is an entry on a resource without rules, as its web filter does
 * for every URL.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class SentinelHotPath {
  private static final String NO_RULES = "no-rules";
  private static final String RATE_LIMIT = "rate-limit";
  private static final String COMBINED = "combined";

  @Setup
  public void setUp() {
    FlowRuleManager.loadRules(Arrays.asList(qps(RATE_LIMIT), qps(COMBINED), threads(COMBINED)));
    DegradeRuleManager.loadRules(Collections.singletonList(breaker(COMBINED)));
  }

  @Benchmark
  public void noMatch() throws BlockException {
    Entry entry = SphU.entry(NO_RULES);
    try {
      Work.run();
    } finally {
      entry.exit();
    }
  }

  @Benchmark
  public void rateLimit() throws BlockException {
    Entry entry = SphU.entry(RATE_LIMIT);
    try {
      Work.run();
    } finally {
      entry.exit();
    }
  }

  @Benchmark
  public void combined() throws BlockException {
    Entry entry = SphU.entry(COMBINED);
    try {
      Work.run();
    } finally {
      entry.exit();
    }
  }

  private static FlowRule qps(String resource) {
    FlowRule rule = new FlowRule(resource);
    rule.setGrade(RuleConstant.FLOW_GRADE_QPS);
    rule.setCount(HotPathRules.RATE_PER_SECOND);
    return rule;
  }

  private static FlowRule threads(String resource) {
    FlowRule rule = new FlowRule(resource);
    rule.setGrade(RuleConstant.FLOW_GRADE_THREAD);
    rule.setCount(HotPathRules.MAX_CONCURRENT);
    return rule;
  }

  private static DegradeRule breaker(String resource) {
    return new DegradeRule(resource)
        .setGrade(RuleConstant.DEGRADE_GRADE_EXCEPTION_RATIO)
        .setCount(0.5)
        .setMinRequestAmount(20)
        .setStatIntervalMs(10_000)
        .setTimeWindow(5);
  }
}
