package io.levee.bootstrap.apache4;

import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.http.BlockingClientCalls;
import io.levee.bootstrap.http.BlockingClientHooks;
import io.levee.bootstrap.http.BlockingClients;

/**
 * What the woven methods of Apache HttpClient 4 call: {@code doExecute(HttpHost, HttpRequest,
 * HttpContext)} of every {@code org.apache.http.impl.client.CloseableHttpClient}, and {@code
 * HttpClientContext.getRequestConfig()}. The logic is in {@link BlockingClients}, reached through
 * {@link BlockingClientHooks}; what needs the client's types is in the calls the agent defines
 * beside each loader's copy of the client ({@link #CALLS}).
 */
public final class Apache4Hooks {
  private static final BlockingClientHooks HOOKS = new BlockingClientHooks();

  /** The calls of each woven class; the agent installs their factory before it weaves. */
  public static final SiteCalls<BlockingClientCalls> CALLS = HOOKS.calls;

  private Apache4Hooks() {}

  public static Object enter(Class<?> site, Object target, Object request) {
    return HOOKS.enter(site, target, request);
  }

  public static Object exit(
      Object token, long start, Class<?> site, Object target, Object request, Object returned) {
    return HOOKS.exit(token, start, site, target, request, returned);
  }

  public static Throwable thrown(
      Object token, long start, Class<?> site, Object target, Object request, Throwable thrown) {
    return HOOKS.thrown(token, start, thrown);
  }

  public static Object requestConfig(Object token, Class<?> site, Object returned) {
    return HOOKS.requestConfig(site, returned);
  }
}
