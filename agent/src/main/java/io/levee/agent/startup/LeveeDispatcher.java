package io.levee.agent.startup;

import io.levee.agent.log.ErrorLog;
import io.levee.agent.method.MethodWeaving;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.KeySource;
import io.levee.rules.engine.MethodSite;
import java.io.Closeable;

/**
 * What the bridge forwards to once the agent runs: every decision to the engine, errors to the log.
 * Closed at a detach, it forgets the last good answers the engine kept.
 */
final class LeveeDispatcher extends Dispatcher implements Closeable {
  private final Engine engine;
  private final MethodWeaving methods;
  private final ErrorLog errors;

  LeveeDispatcher(Engine engine, MethodWeaving methods, ErrorLog errors) {
    this.engine = engine;
    this.methods = methods;
    this.errors = errors;
  }

  /**
   * {@code keys} is the {@link KeySource} the servlet integration gave the request's servlet calls.
   */
  @Override
  public Object servletEnter(String method, String path, Object request, Object keys) {
    return engine.servlet(method, path, request, (KeySource) keys);
  }

  @Override
  public Object httpEnter(String method, String url) {
    return engine.http(method, url);
  }

  @Override
  public boolean keepsLastGood(Object permit) {
    return engine.keepsLastGood(permit);
  }

  @Override
  public LastGoodKeeper lastGood(
      Object permit, String method, String url, int status, String[] headers) {
    return engine.lastGood(permit, method, url, status, headers);
  }

  @Override
  public Object jdbcEnter(String jdbcUrl, String sql) {
    return engine.jdbc(jdbcUrl, sql);
  }

  @Override
  public Object jdbcConnect(String jdbcUrl) {
    return engine.jdbcConnect(jdbcUrl);
  }

  @Override
  public boolean jdbcConnectMatches(String jdbcUrl) {
    return engine.jdbcConnectMatches(jdbcUrl);
  }

  @Override
  public boolean jdbcReadsSql(String jdbcUrl) {
    return engine.jdbcReadsSql(jdbcUrl);
  }

  @Override
  public Object methodEnter(int site) {
    MethodSite s = methods.site(site);
    return s == null ? null : engine.method(s);
  }

  @Override
  public Throwable methodBlocked(int site, Blocked blocked) {
    return methods.blocked(site, blocked);
  }

  @Override
  public void methodExit(Object token, long startNanos, Throwable error) {
    engine.methodDone(token, startNanos, error);
  }

  @Override
  public long start(Object permit) {
    return engine.start(permit);
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    engine.complete(token, startNanos, status, error);
  }

  @Override
  public Blocked backpressure(Object permit, Blocked refused) {
    return engine.backpressure(permit, refused);
  }

  @Override
  public void internalError(Throwable error) {
    errors.report(error);
  }

  @Override
  public void close() {
    engine.forgetLastGood();
  }
}
