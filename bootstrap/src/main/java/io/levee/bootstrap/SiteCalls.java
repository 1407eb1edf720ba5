package io.levee.bootstrap;

/**
 * The calls object of one integration for each woven class: the logic that touches a library's own
 * types (a servlet API, an HTTP client) cannot live in the boot loader, so the agent defines it
 * beside the library, in a loader whose parent is the woven class's, and the bridge finds it once
 * per woven class (a {@link ClassValue}) and then calls it directly.
 *
 * <p>Fails open: before the agent installs its factory, or when the factory fails for a class
 * (reported once), the class gets {@code none}, which must treat every call as untracked.
 *
 * @param <T> the calls interface of the integration, declared in the bridge
 */
public final class SiteCalls<T> extends ClassValue<T> {
  /** Makes the calls for the woven class {@code site}, or null when it has none. */
  public abstract static class Factory<T> {
    public abstract T create(Class<?> site);
  }

  private final T none;
  private volatile Factory<T> factory;

  public SiteCalls(T none) {
    this.none = none;
  }

  /** Installed by the agent before it weaves the classes that call {@link #get}. */
  public void install(Factory<T> f) {
    factory = f;
  }

  @Override
  protected T computeValue(Class<?> site) {
    Factory<T> f = factory;
    if (f == null) {
      return none;
    }
    try {
      T calls = f.create(site);
      return calls == null ? none : calls;
    } catch (Throwable t) {
      // Remembered as "none": one report, not one per call.
      HookErrors.report(t);
      return none;
    }
  }
}
