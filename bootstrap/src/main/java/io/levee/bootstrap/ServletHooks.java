package io.levee.bootstrap;

/**
 * What the woven {@code Servlet.service} and {@code Filter.doFilter} call. The servlet API cannot be
 * seen from the boot loader, so the logic lives in a {@link ServletHook} per servlet API and class
 * loader, found for each woven class once (a {@link ClassValue}) and then called directly.
 *
 * <p>Fails open like all of the bridge: an error of the hook is reported and the request runs
 * unprotected. The woven code skips the original method when {@link #enter} returns a
 * {@link Blocked} token (the answer has been written), and always calls {@link #exit} or
 * {@link #thrown}, which give the call depth back.
 */
public final class ServletHooks {
  public static final int JAVAX = 0;
  public static final int JAKARTA = 1;

  /** Makes the hook for the classes of one loader; the agent installs it before it weaves. */
  public abstract static class Factory {
    /** The hook of {@code api} for the woven class {@code site}, or null if there is none. */
    public abstract ServletHook create(Class<?> site, int api);
  }

  private static final ServletHook NONE =
      new ServletHook() {
        @Override
        public Object enter(Object request, Object response) {
          return null;
        }

        @Override
        public void exit(Object request, Object response, Object token, long start, Throwable thrown) {}
      };

  private static volatile Factory factory;

  private static final ClassValue<ServletHook> JAVAX_HOOKS = new Hooks(JAVAX);
  private static final ClassValue<ServletHook> JAKARTA_HOOKS = new Hooks(JAKARTA);

  private ServletHooks() {}

  public static void install(Factory f) {
    factory = f;
  }

  public static Object enter(int api, Class<?> site, Object request, Object response) {
    try {
      return hooks(api).get(site).enter(request, response);
    } catch (Throwable t) {
      AdviceErrors.report(t);
      return null;
    }
  }

  /** Normal end, or the original skipped for a {@link Blocked} token. */
  public static Object exit(
      Object token, long start, int api, Class<?> site, Object request, Object response, Object returned) {
    end(token, start, api, site, request, response, null);
    return returned;
  }

  /** The original threw {@code thrown}, which the woven code throws on. */
  public static Throwable thrown(
      Object token, long start, int api, Class<?> site, Object request, Object response, Throwable thrown) {
    end(token, start, api, site, request, response, thrown);
    return thrown;
  }

  private static void end(
      Object token, long start, int api, Class<?> site, Object request, Object response, Throwable thrown) {
    try {
      hooks(api).get(site).exit(request, response, token, start, thrown);
    } catch (Throwable t) {
      AdviceErrors.report(t);
    }
  }

  private static ClassValue<ServletHook> hooks(int api) {
    return api == JAKARTA ? JAKARTA_HOOKS : JAVAX_HOOKS;
  }

  private static final class Hooks extends ClassValue<ServletHook> {
    private final int api;

    Hooks(int api) {
      this.api = api;
    }

    @Override
    protected ServletHook computeValue(Class<?> site) {
      Factory f = factory;
      if (f == null) {
        return NONE;
      }
      try {
        ServletHook hook = f.create(site, api);
        return hook == null ? NONE : hook;
      } catch (Throwable t) {
        // Remembered as "none": one report, not one per request.
        AdviceErrors.report(t);
        return NONE;
      }
    }
  }
}
