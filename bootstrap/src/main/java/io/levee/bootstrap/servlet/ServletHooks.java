package io.levee.bootstrap.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.SiteCalls;

/**
 * What the woven {@code Servlet.service} and {@code Filter.doFilter} call. The servlet API cannot
 * be seen from the boot loader, so the logic lives in a {@link ServletCalls} per servlet API and
 * class loader, found for each woven class once ({@link SiteCalls}) and then called directly.
 *
 * <p>Fails open like all of the bridge: an error of the calls is reported and the request runs
 * unprotected. The woven code skips the original method when {@link #enter} returns a {@link
 * Blocked} token (the answer has been written), and always calls {@link #exit} or {@link #thrown},
 * which give the call depth back.
 */
public final class ServletHooks {
  public static final int JAVAX = 0;
  public static final int JAKARTA = 1;

  /** Makes the calls for the classes of one loader; the agent installs it before it weaves. */
  public abstract static class Factory {
    /** The calls of {@code api} for the woven class {@code site}, or null if there are none. */
    public abstract ServletCalls create(Class<?> site, int api);
  }

  private static final ServletCalls NONE =
      new ServletCalls() {
        @Override
        public Object enter(Object request, Object response) {
          return null;
        }

        @Override
        public boolean exit(
            Object request, Object response, Object token, long start, Throwable thrown) {
          return false;
        }

        @Override
        public String remoteAddr(Object request) {
          return null;
        }

        @Override
        public String header(Object request, String name) {
          return null;
        }

        @Override
        public String queryString(Object request) {
          return null;
        }
      };

  private static final SiteCalls<ServletCalls> JAVAX_CALLS = new SiteCalls<ServletCalls>(NONE);
  private static final SiteCalls<ServletCalls> JAKARTA_CALLS = new SiteCalls<ServletCalls>(NONE);

  private ServletHooks() {}

  public static void install(Factory f) {
    JAVAX_CALLS.install(new OfApi(f, JAVAX));
    JAKARTA_CALLS.install(new OfApi(f, JAKARTA));
  }

  public static Object enter(int api, Class<?> site, Object request, Object response) {
    try {
      return calls(api).get(site).enter(request, response);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /** Normal end, or the original skipped for a {@link Blocked} token. */
  public static Object exit(
      Object token,
      long start,
      int api,
      Class<?> site,
      Object request,
      Object response,
      Object returned) {
    end(token, start, api, site, request, response, null);
    return returned;
  }

  /**
   * The original threw {@code thrown}, which the woven code throws on; null when the request has
   * been answered instead ({@code backpressure}), and the woven method then returns normally.
   */
  public static Throwable thrown(
      Object token,
      long start,
      int api,
      Class<?> site,
      Object request,
      Object response,
      Throwable thrown) {
    return end(token, start, api, site, request, response, thrown) ? null : thrown;
  }

  private static boolean end(
      Object token,
      long start,
      int api,
      Class<?> site,
      Object request,
      Object response,
      Throwable thrown) {
    try {
      return calls(api).get(site).exit(request, response, token, start, thrown);
    } catch (Throwable t) {
      HookErrors.report(t);
      return false;
    }
  }

  /**
   * Woven into Tomcat's {@code Http11Processor.statusDropsConnection(int)}: non-null skips it, and
   * the skipped method answers false, so the connection stays open after Levee's own answer ({@link
   * OwnAnswer}); null runs it as it is.
   */
  public static Object keepsConnection(int status) {
    try {
      return OwnAnswer.isOwn(status) ? Boolean.TRUE : null;
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  private static SiteCalls<ServletCalls> calls(int api) {
    return api == JAKARTA ? JAKARTA_CALLS : JAVAX_CALLS;
  }

  /** The factory's calls of one servlet API. */
  private static final class OfApi extends SiteCalls.Factory<ServletCalls> {
    private final Factory factory;
    private final int api;

    OfApi(Factory factory, int api) {
      this.factory = factory;
      this.api = api;
    }

    @Override
    public ServletCalls create(Class<?> site) {
      return factory.create(site, api);
    }
  }
}
