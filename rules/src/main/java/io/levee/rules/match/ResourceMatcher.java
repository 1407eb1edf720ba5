package io.levee.rules.match;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.List;

/**
 * Finds the resource that applies to a call: the FIRST of {@code rules.resources} of the call's
 * kind whose {@code match:} accepts it, as an index into that list, or -1. Never a {@code method}
 * resource: the weaver picks those for a class as it weaves it ({@link MethodPlan}), so no method
 * call is ever looked up; they still count in the index.
 *
 * <p>Semantics beyond SPEC §2: methods compare case-insensitively; a jdbc statement matches when
 * its URL, operation, tables (ANY of its tables matches ANY pattern; a statement with no known
 * table never matches a non-empty {@code tables}) and {@code sql} ({@code find}) all do. Acquiring
 * a connection matches only resources whose {@code operations} name CONNECT, judged on the URL
 * alone; a resource with no {@code operations} matches every statement but never a connect. A
 * statement whose SQL is unknown ({@code sql == null}, as after a runtime attach) matches only
 * resources that constrain neither operations, tables nor SQL.
 *
 * <p>Caching, so that a warm call site does not match again and allocates nothing:
 *
 * <ul>
 *   <li>servlet: path → the servlet resources whose paths match; the method is checked on each call
 *       against those few (a string compare), so no (method, path) key is ever built;
 *   <li>http: URL → the http resources whose URLs match, likewise;
 *   <li>jdbc: URL → a {@link JdbcSite}; when a result depends on the SQL, SQL text → a {@link
 *       SqlEntry} holding its classification and its result per site;
 *   <li>{@code system.exclude}: path → excluded or not.
 * </ul>
 *
 * Each cache holds at most {@link #MAX_ENTRIES} keys ({@link #MAX_JDBC_URLS} for JDBC URLs); SQL is
 * cached only up to {@link #MAX_SQL_LENGTH} characters and {@link #MAX_SQL_CHARS} in all. A full
 * cache is emptied and refilled ({@link BoundedCache}); a key that is not cached is matched again,
 * with the same answer. Call sites with unbounded keys (a URL with an id in the path or a query
 * string, SQL with inlined literals) therefore stay correct and bounded, only slower.
 *
 * <p>Concurrency: immutable after construction apart from the caches, which are concurrent maps of
 * immutable values; racing threads may both compute a missing answer, and they compute the same
 * one.
 */
public final class ResourceMatcher {
  static final int MAX_ENTRIES = 4096;
  static final int MAX_JDBC_URLS = 256;
  static final int MAX_SQL_LENGTH = 4096;
  static final long MAX_SQL_CHARS = 1L << 20;

  private static final int[] NONE = new int[0];

  private final CompiledMatch[] matches;
  private final int[] servlets;
  private final int[] https;
  private final int[] jdbcs;

  /**
   * Whether a jdbc resource names operations, tables or SQL, so that some statement's SQL counts.
   */
  private final boolean jdbcReadsSql;

  private final PathPattern[] excludes;

  private final BoundedCache<String, int[]> servletCache =
      new BoundedCache<String, int[]>(MAX_ENTRIES, Long.MAX_VALUE);
  private final BoundedCache<String, int[]> httpCache =
      new BoundedCache<String, int[]>(MAX_ENTRIES, Long.MAX_VALUE);
  private final BoundedCache<String, JdbcSite> siteCache =
      new BoundedCache<String, JdbcSite>(MAX_JDBC_URLS, Long.MAX_VALUE);
  private final BoundedCache<String, SqlEntry> sqlCache =
      new BoundedCache<String, SqlEntry>(MAX_ENTRIES, MAX_SQL_CHARS);
  private final BoundedCache<String, Boolean> excludeCache =
      new BoundedCache<String, Boolean>(MAX_ENTRIES, Long.MAX_VALUE);

  /**
   * Compiles every pattern of the rules.
   *
   * @throws IllegalArgumentException naming the resource when a pattern is invalid (the loader
   *     compiles the same patterns, so this only happens to rules it did not build)
   */
  public ResourceMatcher(RuleSet rules) {
    List<ResourceRule> resources = rules.resources;
    matches = new CompiledMatch[resources.size()];
    for (int i = 0; i < matches.length; i++) {
      matches[i] = new CompiledMatch(resources.get(i));
    }
    servlets = indicesOf(CallKind.SERVLET);
    https = indicesOf(CallKind.HTTP);
    jdbcs = indicesOf(CallKind.JDBC);
    boolean readsSql = false;
    for (int index : jdbcs) {
      readsSql |= !matches[index].matchesAnyStatement();
    }
    jdbcReadsSql = readsSql;
    List<String> exclude =
        rules.system == null ? java.util.Collections.<String>emptyList() : rules.system.exclude;
    excludes = new PathPattern[exclude.size()];
    for (int i = 0; i < excludes.length; i++) {
      excludes[i] = PathPattern.compile(exclude.get(i));
    }
  }

  /** The servlet resource for an inbound request, or -1. Pass the path without the query string. */
  public int servlet(String method, String path) {
    if (servlets.length == 0) {
      return -1;
    }
    int[] candidates = path == null ? null : servletCache.get(path);
    if (candidates == null) {
      candidates = candidates(servlets, path, CallKind.SERVLET);
      if (path != null) {
        servletCache.put(path, candidates, 1);
      }
    }
    return firstWithMethod(candidates, method);
  }

  /** The http resource for an outbound call to an absolute URL, or -1. */
  public int http(String method, String url) {
    if (https.length == 0) {
      return -1;
    }
    int[] candidates = url == null ? null : httpCache.get(url);
    if (candidates == null) {
      candidates = candidates(https, url, CallKind.HTTP);
      if (url != null) {
        httpCache.put(url, candidates, 1);
      }
    }
    return firstWithMethod(candidates, method);
  }

  /**
   * The jdbc resource for executing {@code sql} (null when unknown) on the database at the URL, or
   * -1.
   */
  public int jdbc(String jdbcUrl, String sql) {
    if (jdbcs.length == 0) {
      return -1;
    }
    JdbcSite site = site(jdbcUrl);
    if (!site.readsSql || sql == null) {
      return site.anyStatement;
    }
    boolean cacheable = sql.length() <= MAX_SQL_LENGTH;
    SqlEntry entry = cacheable ? sqlCache.get(sql) : null;
    if (entry != null) {
      int known = entry.resultAt(site);
      if (known != SqlEntry.UNKNOWN) {
        return known;
      }
    }
    if (entry == null) {
      entry = new SqlEntry(SqlClassifier.classify(sql));
    }
    int result = firstStatementMatch(site, entry.info, sql);
    if (cacheable) {
      sqlCache.put(sql, entry.with(site, result), sql.length());
    }
    return result;
  }

  /**
   * Whether deciding a statement on the database at the URL (null: not known, so any) may need its
   * SQL.
   */
  public boolean jdbcReadsSql(String jdbcUrl) {
    return jdbcReadsSql && (jdbcUrl == null || site(jdbcUrl).readsSql);
  }

  /** The jdbc resource for acquiring a connection to the URL, or -1. */
  public int jdbcConnect(String jdbcUrl) {
    return jdbcs.length == 0 ? -1 : site(jdbcUrl).connect;
  }

  /** Whether {@code system.exclude} names the path, so the system rule never sheds it. */
  public boolean systemExcluded(String path) {
    if (excludes.length == 0 || path == null) {
      return false;
    }
    Boolean cached = excludeCache.get(path);
    if (cached != null) {
      return cached;
    }
    boolean excluded = false;
    for (PathPattern p : excludes) {
      if (p.matches(path)) {
        excluded = true;
        break;
      }
    }
    excludeCache.put(path, excluded ? Boolean.TRUE : Boolean.FALSE, 1);
    return excluded;
  }

  private JdbcSite site(String url) {
    JdbcSite site = url == null ? null : siteCache.get(url);
    if (site == null) {
      site = new JdbcSite(candidates(jdbcs, url, CallKind.JDBC), matches);
      if (url != null) {
        siteCache.put(url, site, 1);
      }
    }
    return site;
  }

  private int firstStatementMatch(JdbcSite site, SqlInfo info, String sql) {
    for (int index : site.candidates) {
      CompiledMatch m = matches[index];
      if (m.matchesAnyStatement() || m.statementMatches(info, sql)) {
        return index;
      }
    }
    return -1;
  }

  private int firstWithMethod(int[] candidates, String method) {
    for (int i = 0; i < candidates.length; i++) {
      int index = candidates[i];
      if (matches[index].methodMatches(method)) {
        return index;
      }
    }
    return -1;
  }

  private int[] candidates(int[] ofKind, String key, CallKind kind) {
    int[] found = new int[ofKind.length];
    int n = 0;
    for (int index : ofKind) {
      CompiledMatch m = matches[index];
      boolean matched =
          kind == CallKind.SERVLET
              ? m.pathMatches(key)
              : kind == CallKind.HTTP ? m.urlMatches(key) : m.jdbcUrlMatches(key);
      if (matched) {
        found[n++] = index;
      }
    }
    return n == 0 ? NONE : java.util.Arrays.copyOf(found, n);
  }

  private int[] indicesOf(CallKind kind) {
    int[] found = new int[matches.length];
    int n = 0;
    for (int i = 0; i < matches.length; i++) {
      if (matches[i].kind == kind) {
        found[n++] = i;
      }
    }
    return java.util.Arrays.copyOf(found, n);
  }

  int cachedPaths() {
    return servletCache.size();
  }

  int cachedUrls() {
    return httpCache.size();
  }

  int cachedJdbcUrls() {
    return siteCache.size();
  }

  int cachedSql() {
    return sqlCache.size();
  }

  int cachedExcludes() {
    return excludeCache.size();
  }
}
