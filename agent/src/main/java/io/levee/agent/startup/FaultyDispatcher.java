package io.levee.agent.startup;

import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.http.LastGoodKeeper;

/**
 * The dispatcher installed in fault mode ({@code -Dlevee.inject-faults}, see {@link Faults}): the
 * real one, with the {@link Faults#DISPATCHER} point in front of every decision and after every
 * outcome, so that when it is armed ({@code true}) every call fails inside the agent. It exists to
 * prove the promise of SPEC §1 on a real application. Never set it in production.
 */
final class FaultyDispatcher extends Dispatcher {
  private final Dispatcher real;

  private FaultyDispatcher(Dispatcher real) {
    this.real = real;
  }

  /** {@code real}, or {@code real} behind the dispatcher's fault point in fault mode. */
  static Dispatcher wrapIfAsked(Dispatcher real, AgentLog log) {
    if (!Faults.enabled()) {
      return real;
    }
    log.warn(
        Faults.PROPERTY
            + "="
            + System.getProperty(Faults.PROPERTY)
            + ": fault mode, the armed point fails on purpose and protects nothing");
    return new FaultyDispatcher(real);
  }

  @Override
  public Object servletEnter(String method, String path, Object request, Object keys) {
    Faults.at(Faults.DISPATCHER);
    return real.servletEnter(method, path, request, keys);
  }

  @Override
  public Object httpEnter(String method, String url) {
    Faults.at(Faults.DISPATCHER);
    return real.httpEnter(method, url);
  }

  @Override
  public boolean keepsLastGood(Object permit) {
    Faults.at(Faults.DISPATCHER);
    return real.keepsLastGood(permit);
  }

  @Override
  public LastGoodKeeper lastGood(
      Object permit, String method, String url, int status, String[] headers) {
    Faults.at(Faults.DISPATCHER);
    return real.lastGood(permit, method, url, status, headers);
  }

  @Override
  public Object jdbcEnter(String jdbcUrl, String sql) {
    Faults.at(Faults.DISPATCHER);
    return real.jdbcEnter(jdbcUrl, sql);
  }

  @Override
  public Object jdbcConnect(String jdbcUrl) {
    Faults.at(Faults.DISPATCHER);
    return real.jdbcConnect(jdbcUrl);
  }

  @Override
  public boolean jdbcConnectMatches(String jdbcUrl) {
    Faults.at(Faults.DISPATCHER);
    return real.jdbcConnectMatches(jdbcUrl);
  }

  @Override
  public boolean jdbcReadsSql(String jdbcUrl) {
    Faults.at(Faults.DISPATCHER);
    return real.jdbcReadsSql(jdbcUrl);
  }

  @Override
  public Object methodEnter(int site) {
    Faults.at(Faults.DISPATCHER);
    return real.methodEnter(site);
  }

  @Override
  public Throwable methodBlocked(int site, Blocked blocked) {
    Faults.at(Faults.DISPATCHER);
    return real.methodBlocked(site, blocked);
  }

  @Override
  public Blocked backpressure(Object permit, Blocked refused) {
    Faults.at(Faults.DISPATCHER);
    return real.backpressure(permit, refused);
  }

  /** The outcome is recorded first: the permit goes back whatever fails after. */
  @Override
  public void methodExit(Object token, long startNanos, Throwable error) {
    real.methodExit(token, startNanos, error);
    Faults.at(Faults.DISPATCHER);
  }

  /** The outcome is recorded first: the permit goes back whatever fails after. */
  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    real.exit(token, startNanos, status, error);
    Faults.at(Faults.DISPATCHER);
  }

  @Override
  public void internalError(Throwable error) {
    real.internalError(error);
  }
}
