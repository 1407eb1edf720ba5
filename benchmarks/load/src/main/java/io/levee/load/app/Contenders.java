package io.levee.load.app;

import com.alibaba.csp.sentinel.adapter.servlet.CommonFilter;
import com.alibaba.csp.sentinel.slots.system.SystemRule;
import com.alibaba.csp.sentinel.slots.system.SystemRuleManager;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.servlet.ConcurrencyLimitServletFilter;
import com.netflix.concurrency.limits.servlet.ServletLimiterBuilder;
import java.util.List;
import java.util.function.IntSupplier;
import javax.servlet.Filter;

/**
 * The protections compared, each as the filter its project documents for a servlet application.
 * "none" and "levee" add no filter (Levee is the {@code -javaagent}, whose system limit the harness
 * reads from the agent's own endpoint).
 */
public final class Contenders {
  public static final List<String> NAMES =
      List.of("none", "static", "netflix-default", "netflix-tuned", "sentinel-cpu", "levee");

  /** The filter to install (or null) and how to read its current limit (-1: none to read). */
  public record Built(Filter filter, IntSupplier limit, StaticLimitFilter staticFilter) {}

  private Contenders() {}

  public static Built build(String name) {
    switch (name) {
      case "none":
      case "levee":
        return new Built(null, () -> -1, null);
      case "static":
        StaticLimitFilter f = new StaticLimitFilter(Integer.getInteger("static.limit", 4));
        return new Built(f, f::limit, f);
      case "netflix-default":
        return netflix(Gradient2Limit.newBuilder().build());
      case "netflix-tuned":
        return netflix(
            Gradient2Limit.newBuilder().minLimit(1).initialLimit(10).maxConcurrency(200).build());
      case "sentinel-cpu":
        SystemRule rule = new SystemRule();
        rule.setHighestCpuUsage(0.8);
        SystemRuleManager.loadRules(List.of(rule));
        return new Built(new CommonFilter(), () -> -1, null);
      default:
        throw new IllegalArgumentException("unknown contender " + name + ", one of " + NAMES);
    }
  }

  /** Gradient2 in a WindowedLimit (1 s windows), as the project's README sets up a server. */
  private static Built netflix(Gradient2Limit gradient) {
    AbstractLimiter<?> limiter =
        (AbstractLimiter<?>)
            new ServletLimiterBuilder().limit(WindowedLimit.newBuilder().build(gradient)).build();
    @SuppressWarnings("unchecked")
    com.netflix.concurrency.limits.Limiter<javax.servlet.http.HttpServletRequest> typed =
        (com.netflix.concurrency.limits.Limiter<javax.servlet.http.HttpServletRequest>) limiter;
    return new Built(new ConcurrencyLimitServletFilter(typed), limiter::getLimit, null);
  }
}
