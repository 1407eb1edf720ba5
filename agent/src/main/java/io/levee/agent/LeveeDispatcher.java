package io.levee.agent;

import io.levee.bootstrap.Dispatcher;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.KeySource;

/** What the bridge forwards to once the agent runs: every decision to the engine, errors to the log. */
final class LeveeDispatcher extends Dispatcher {
  private final Engine engine;
  private final KeySource keys;
  private final ErrorLog errors;

  LeveeDispatcher(Engine engine, KeySource keys, ErrorLog errors) {
    this.engine = engine;
    this.keys = keys;
    this.errors = errors;
  }

  @Override
  public Object servletEnter(String method, String path, Object request) {
    return engine.servlet(method, path, request, keys);
  }

  @Override
  public Object httpEnter(String method, String url) {
    return engine.http(method, url);
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
  public long start(Object permit) {
    return engine.start(permit);
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    engine.complete(token, startNanos, status, error);
  }

  @Override
  public void internalError(Throwable error) {
    errors.report(error);
  }
}
