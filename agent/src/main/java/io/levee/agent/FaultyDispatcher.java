package io.levee.agent;

import io.levee.bootstrap.Dispatcher;

/**
 * A dispatcher that fails on every call, installed instead of the real one when the JVM runs with
 * {@code -Dlevee.inject-faults=true}. It exists to prove the promise of SPEC §1 on a real
 * application: whatever goes wrong inside the agent, the application's answers stay what they would
 * be without it. Never set it in production: the agent then protects nothing.
 */
final class FaultyDispatcher extends Dispatcher {
  static final String PROPERTY = "levee.inject-faults";

  private final Dispatcher real;

  private FaultyDispatcher(Dispatcher real) {
    this.real = real;
  }

  /** {@code real}, or a dispatcher that throws from every method when faults are asked for. */
  static Dispatcher wrapIfAsked(Dispatcher real, AgentLog log) {
    if (!Boolean.parseBoolean(System.getProperty(PROPERTY))) {
      return real;
    }
    log.warn(PROPERTY + "=true: every decision fails on purpose, the application runs unprotected");
    return new FaultyDispatcher(real);
  }

  @Override
  public Object servletEnter(String method, String path, Object request) {
    throw fault("servletEnter");
  }

  @Override
  public Object httpEnter(String method, String url) {
    throw fault("httpEnter");
  }

  @Override
  public Object jdbcEnter(String jdbcUrl, String sql) {
    throw fault("jdbcEnter");
  }

  @Override
  public Object jdbcConnect(String jdbcUrl) {
    throw fault("jdbcConnect");
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    throw fault("exit");
  }

  @Override
  public void internalError(Throwable error) {
    real.internalError(error);
  }

  private static IllegalStateException fault(String where) {
    return new IllegalStateException("fault injected in " + where);
  }
}
