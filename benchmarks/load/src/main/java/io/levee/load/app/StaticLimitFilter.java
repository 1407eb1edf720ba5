package io.levee.load.app;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletResponse;

/**
 * A fixed concurrency limit that rejects at once (a semaphore bulkhead with no wait, like
 * Resilience4j's with maxWaitDuration 0). The limit can be changed while running, for calibration.
 */
public final class StaticLimitFilter implements Filter {
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile int limit;

  StaticLimitFilter(int limit) {
    this.limit = limit;
  }

  int limit() {
    return limit;
  }

  void setLimit(int limit) {
    this.limit = limit;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
      throws IOException, ServletException {
    if (inFlight.incrementAndGet() > limit) {
      inFlight.decrementAndGet();
      ((HttpServletResponse) resp).sendError(429);
      return;
    }
    try {
      chain.doFilter(req, resp);
    } finally {
      inFlight.decrementAndGet();
    }
  }
}
