package io.levee.rules.engine;

import io.levee.rules.policy.adaptive.AdaptiveLimiter;

/**
 * The class of an inbound request for the {@code system} limit, one of {@link
 * AdaptiveLimiter#CLASSES}: in the top of the limit its reserve decides which classes of normal
 * requests may still take a permit (critical and sheddable ones go by their priority alone).
 */
final class RequestClasses {
  private RequestClasses() {}

  /**
   * The class of a request for the system limit's reserve ({@link AdaptiveLimiter}): the resource
   * it matched, else its page, the path up to its second segment, ending before a segment that
   * starts with a digit (an id): {@code /orders/42} and {@code /orders/43} are one page, {@code
   * /api/orders} and {@code /api/users} two. Folded into {@link AdaptiveLimiter#CLASSES}; pages
   * that share one share their reserve, which only makes it coarser. Allocates nothing.
   */
  static int ofPath(String path) {
    if (path == null) {
      return 0;
    }
    int h = 1;
    int segments = 0;
    int n = path.length();
    for (int k = 0; k < n; k++) {
      char ch = path.charAt(k);
      if (ch == '/') {
        if (k + 1 < n && Character.isDigit(path.charAt(k + 1)) || ++segments > 2) {
          break;
        }
      } else if (ch == '?' || ch == ';') {
        break;
      }
      h = 31 * h + ch;
    }
    h ^= h >>> 16;
    return (h ^ h >>> 8) & (AdaptiveLimiter.CLASSES - 1);
  }

  /** The class of a request that matched resource {@code i}: see {@link #ofPath}. */
  static int ofResource(int i) {
    return (i * 7 + 3) & (AdaptiveLimiter.CLASSES - 1);
  }
}
