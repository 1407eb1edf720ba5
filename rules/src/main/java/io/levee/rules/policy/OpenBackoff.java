package io.levee.rules.policy;

/**
 * How long a breaker stays open: {@code open-for} doubled on each consecutive open, with jitter,
 * capped at {@code open-for-max} (SPEC §2).
 *
 * <p>Formula, for the k-th consecutive open: {@code base = min(max, openFor · 2^(k−1))}; the first
 * open lasts exactly {@code openFor} (what the user wrote); later ones are uniform in {@code
 * [base/2, base]} ("equal jitter", AWS Architecture Blog, "Exponential Backoff And Jitter"), and
 * never shorter than {@code openFor}. So k = 2 gives [1, 2]·openFor, k = 3 gives [2, 4]·openFor,
 * and at the cap [max/2, max]. Half the base stays fixed so the back-off still grows; the random
 * half spreads the probes of many instances that tripped together.
 */
final class OpenBackoff {
  private OpenBackoff() {}

  /**
   * @param opens the consecutive open this is, from 1
   * @param randomBits uniformly random bits (only the top 53 are used)
   */
  static long nanos(long openFor, long openForMax, int opens, long randomBits) {
    long first = Math.max(1, openFor);
    long cap = Math.max(first, openForMax);
    if (opens <= 1) {
      return first;
    }
    long base = first;
    for (int i = 1; i < opens && base < cap; i++) {
      base = base > cap / 2 ? cap : base * 2;
    }
    double u = (randomBits >>> 11) * 0x1.0p-53;
    long half = base / 2;
    long jittered = half + (long) (u * (base - half));
    return Math.max(first, Math.min(cap, jittered));
  }
}
