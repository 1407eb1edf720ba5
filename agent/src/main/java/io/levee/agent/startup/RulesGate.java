package io.levee.agent.startup;

import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The dispatcher of a start whose rules are still being read: the instrumentation is installed
 * before the rules are in force, so that the application's {@code main} does not wait for them, and
 * a call that comes before they are makes its decision wait until they are, then decides as the
 * agent then does. A start that takes longer than {@link #MAX_WAIT_MILLIS} lets such a call through
 * untracked (failing open, logged once); a start that fails lets every waiting call through.
 *
 * <p>Only the decisions wait. What follows a decision (the start of the call, its outcome) carries
 * the decision's token, which only the real dispatcher gives out, and goes straight to it. Once the
 * start installs the real dispatcher in the bridge, this one is out of the call path.
 *
 * <p>Concurrency: {@link #open} is called once by the starting thread; {@code real} is written
 * before the latch opens, so a thread released by the latch reads it.
 */
final class RulesGate extends Dispatcher {
  /** Longer than any start seen; a start that takes this long is stuck, not slow. */
  static final long MAX_WAIT_MILLIS = 10_000;

  private final Dispatcher real;
  private final AgentLog log;
  private final long maxWaitMillis;
  private final CountDownLatch open = new CountDownLatch(1);
  private volatile boolean failed;
  private volatile boolean warned;
  private volatile Thread starter;

  RulesGate(Dispatcher real, AgentLog log, long maxWaitMillis) {
    this.real = real;
    this.log = log;
    this.maxWaitMillis = maxWaitMillis;
  }

  /** The thread that applies the rules: its own calls (if any) never wait for itself. */
  void startedBy(Thread thread) {
    starter = thread;
  }

  /** The rules are in force ({@code ok}), or the start failed: every waiting call goes on. */
  void open(boolean ok) {
    failed = !ok;
    open.countDown();
  }

  /** The dispatcher a decision goes to now: the real one once the rules are in force. */
  private Dispatcher decider() {
    if (open.getCount() == 0) {
      return failed ? NOOP : real;
    }
    if (Thread.currentThread() == starter) {
      return NOOP;
    }
    boolean interrupted = false;
    boolean opened = false;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        try {
          opened = open.await(Math.max(0, left), TimeUnit.NANOSECONDS);
          break;
        } catch (InterruptedException e) {
          // The application's interrupt is kept for it; the wait goes on.
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (!opened) {
      if (!warned) {
        warned = true;
        log.warn(
            "the rules were not in force "
                + maxWaitMillis
                + " ms after the start: calls go through unprotected until they are");
      }
      return NOOP;
    }
    return failed ? NOOP : real;
  }

  @Override
  public Object servletEnter(String method, String path, Object request, Object keys) {
    return decider().servletEnter(method, path, request, keys);
  }

  @Override
  public Object httpEnter(String method, String url) {
    return decider().httpEnter(method, url);
  }

  @Override
  public Object jdbcEnter(String jdbcUrl, String sql) {
    return decider().jdbcEnter(jdbcUrl, sql);
  }

  @Override
  public Object jdbcConnect(String jdbcUrl) {
    return decider().jdbcConnect(jdbcUrl);
  }

  @Override
  public boolean jdbcConnectMatches(String jdbcUrl) {
    return decider().jdbcConnectMatches(jdbcUrl);
  }

  @Override
  public boolean jdbcReadsSql(String jdbcUrl) {
    return decider().jdbcReadsSql(jdbcUrl);
  }

  @Override
  public Object methodEnter(int site) {
    return decider().methodEnter(site);
  }

  @Override
  public Throwable methodBlocked(int site, Blocked blocked) {
    return real.methodBlocked(site, blocked);
  }

  @Override
  public void methodExit(Object token, long startNanos, Throwable error) {
    real.methodExit(token, startNanos, error);
  }

  @Override
  public boolean keepsLastGood(Object permit) {
    return real.keepsLastGood(permit);
  }

  @Override
  public LastGoodKeeper lastGood(
      Object permit, String method, String url, int status, String[] headers) {
    return real.lastGood(permit, method, url, status, headers);
  }

  @Override
  public long start(Object permit) {
    return real.start(permit);
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    real.exit(token, startNanos, status, error);
  }

  @Override
  public void internalError(Throwable error) {
    real.internalError(error);
  }
}
