package io.levee.bootstrap;

/**
 * What an admitted call carries from enter to exit. The engine hands out one preallocated permit
 * per resource (and per resource-with-system), so admitting a call allocates nothing.
 *
 * <p>The timeouts are what the matched resource asks for, in the unit each API takes; 0 means
 * "leave the application's setting alone". The hooks apply them only where the application left 0
 * (infinite).
 */
public class Permit {
  public final int connectTimeoutMillis;
  public final int readTimeoutMillis;
  public final int queryTimeoutSeconds;

  /**
   * A number unique to the resource that admitted the call, which the method hooks keep open on the
   * thread while the call runs ({@link io.levee.bootstrap.method.OpenMethods}); 0 for none.
   */
  public final int resourceId;

  /**
   * servlet only: whether the request this permit admitted watches for a refused outbound call
   * ({@code backpressure: true}), so that a 5xx it ends with becomes a blocked answer.
   */
  public final boolean backpressure;

  protected Permit(int connectTimeoutMillis, int readTimeoutMillis, int queryTimeoutSeconds) {
    this(connectTimeoutMillis, readTimeoutMillis, queryTimeoutSeconds, 0);
  }

  protected Permit(
      int connectTimeoutMillis, int readTimeoutMillis, int queryTimeoutSeconds, int resourceId) {
    this(connectTimeoutMillis, readTimeoutMillis, queryTimeoutSeconds, resourceId, false);
  }

  protected Permit(
      int connectTimeoutMillis,
      int readTimeoutMillis,
      int queryTimeoutSeconds,
      int resourceId,
      boolean backpressure) {
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.readTimeoutMillis = readTimeoutMillis;
    this.queryTimeoutSeconds = queryTimeoutSeconds;
    this.resourceId = resourceId;
    this.backpressure = backpressure;
  }
}
