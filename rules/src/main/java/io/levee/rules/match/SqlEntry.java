package io.levee.rules.match;

/**
 * What {@link ResourceMatcher} knows of one SQL text: its classification and the resource it
 * matched at each {@link JdbcSite} seen with it. Applications talk to one database or a handful, so
 * a short array searched by identity beats a composite key, which would have to be allocated on
 * every lookup. Immutable: a new site makes a new entry.
 */
final class SqlEntry {
  static final int UNKNOWN = -2;
  private static final int MAX_SITES = 8;

  final SqlInfo info;
  private final JdbcSite[] sites;
  private final int[] results;

  SqlEntry(SqlInfo info) {
    this(info, new JdbcSite[0], new int[0]);
  }

  private SqlEntry(SqlInfo info, JdbcSite[] sites, int[] results) {
    this.info = info;
    this.sites = sites;
    this.results = results;
  }

  /** The resource this SQL matched at the site, or {@link #UNKNOWN}. */
  int resultAt(JdbcSite site) {
    for (int i = 0; i < sites.length; i++) {
      if (sites[i] == site) {
        return results[i];
      }
    }
    return UNKNOWN;
  }

  /**
   * This entry plus one answer. Past {@link #MAX_SITES} the oldest answer goes, because sites are
   * only replaced when the URL cache was emptied, so the oldest is the likeliest to be dead.
   */
  SqlEntry with(JdbcSite site, int result) {
    int keep = Math.min(sites.length, MAX_SITES - 1);
    int from = sites.length - keep;
    JdbcSite[] s = new JdbcSite[keep + 1];
    int[] r = new int[keep + 1];
    System.arraycopy(sites, from, s, 0, keep);
    System.arraycopy(results, from, r, 0, keep);
    s[keep] = site;
    r[keep] = result;
    return new SqlEntry(info, s, r);
  }
}
