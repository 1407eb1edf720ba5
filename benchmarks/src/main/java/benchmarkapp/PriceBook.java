package benchmarkapp;

/**
 * An application's service method, for the cost of weaving one for a {@code method} resource: it
 * lives outside {@code io.levee}, whose classes the agent never weaves, and knows nothing of Levee.
 */
public class PriceBook {
  private long seed = 17;

  /** A few nanoseconds of arithmetic, so the call is a real one the JIT cannot fold away. */
  public long price(int item) {
    long x = seed + item;
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    seed = x;
    return x & 0xFFFF;
  }
}
