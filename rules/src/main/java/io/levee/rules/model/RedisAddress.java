package io.levee.rules.model;

/**
 * Where {@code settings.cluster.redis} says Redis is: {@code redis://} or {@code rediss://} (TLS),
 * an optional user and password, host, port and database. {@link #toString()} never shows the
 * password, so the address can be logged and served as it is.
 */
public final class RedisAddress {
  public static final int DEFAULT_PORT = 6379;

  public final boolean tls;

  /** The ACL user, or null for the default user. */
  public final String user;

  /** The password, or null for none; never logged, printed or served. */
  public final String password;

  public final String host;
  public final int port;
  public final int database;

  public RedisAddress(
      boolean tls, String user, String password, String host, int port, int database) {
    this.tls = tls;
    this.user = user;
    this.password = password;
    this.host = host;
    this.port = port;
    this.database = database;
  }

  /** The address as a URL, with the password left out: {@code rediss://levee@redis:6379/0}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(tls ? "rediss://" : "redis://");
    if (user != null) {
      s.append(user).append('@');
    } else if (password != null) {
      s.append("default@");
    }
    boolean v6 = host.indexOf(':') >= 0;
    s.append(v6 ? "[" : "").append(host).append(v6 ? "]" : "");
    return s.append(':').append(port).append('/').append(database).toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RedisAddress)) {
      return false;
    }
    RedisAddress a = (RedisAddress) o;
    return tls == a.tls
        && Values.eq(user, a.user)
        && Values.eq(password, a.password)
        && host.equals(a.host)
        && port == a.port
        && database == a.database;
  }

  @Override
  public int hashCode() {
    return Values.hash(tls, user, password, host, port, database);
  }
}
