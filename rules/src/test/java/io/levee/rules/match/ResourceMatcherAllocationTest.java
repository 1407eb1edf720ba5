package io.levee.rules.match;

import static io.levee.rules.testing.TestRules.http;
import static io.levee.rules.testing.TestRules.jdbc;
import static io.levee.rules.testing.TestRules.list;
import static io.levee.rules.testing.TestRules.ops;
import static io.levee.rules.testing.TestRules.servlet;
import static io.levee.rules.testing.TestRules.withExcludes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.levee.rules.model.Operation;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** A warm call site must cost a map lookup and nothing on the heap (DESIGN: the hot path). */
class ResourceMatcherAllocationTest {
  private static final int CALLS = 20_000;

  private final ResourceMatcher matcher =
      new ResourceMatcher(
          withExcludes(
              list("/health"),
              servlet("checkout", list("POST"), "/shop/checkout/**"),
              servlet("shop", list(), "/shop/**"),
              http("pay", list("POST"), "https://pay.example.com/v1/**"),
              jdbc(
                  "orders",
                  list("jdbc:postgresql://**"),
                  ops(Operation.SELECT),
                  list("orders"),
                  null),
              jdbc("pool", list("jdbc:postgresql://**"), ops(Operation.CONNECT), list(), null)));

  private final String path = new StringBuilder("/shop/checkout/pay").toString();
  private final String url = "https://pay.example.com/v1/charge?id=1";
  private final String jdbcUrl = "jdbc:postgresql://db1/orders";
  private final String sql = "SELECT * FROM orders WHERE id = ?";

  @Test
  void warmLookupsAllocateNothing() {
    com.sun.management.ThreadMXBean threads = threadBean();
    int sum = lookups(1_000);
    long before = threads.getCurrentThreadAllocatedBytes();
    sum += lookups(CALLS);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(sum).isEqualTo(1_000 * 10 + CALLS * 10);
    // a few hundred bytes for the measurement itself; one object per call would be megabytes
    assertThat(allocated).isLessThan(10_000);
  }

  private int lookups(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
      sum += matcher.servlet("POST", path); // 0
      sum += matcher.servlet("GET", path); // 1
      sum += matcher.http("POST", url); // 2
      sum += matcher.jdbc(jdbcUrl, sql); // 3
      sum += matcher.jdbcConnect(jdbcUrl); // 4
      sum += matcher.systemExcluded(path) ? 1 : 0;
    }
    return sum;
  }

  private static com.sun.management.ThreadMXBean threadBean() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeThat(bean).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
    threads.setThreadAllocatedMemoryEnabled(true);
    return threads;
  }
}
