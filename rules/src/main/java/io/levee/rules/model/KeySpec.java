package io.levee.rules.model;

/**
 * {@code rate-limit.per}: {@code ip}, {@code header:NAME}, {@code param:NAME} or {@code jwt:CLAIM}.
 */
public final class KeySpec {
  public enum Source {
    IP,
    HEADER,
    PARAM,
    /** A claim of the {@code Authorization: Bearer} token's payload, decoded, not verified. */
    JWT
  }

  /** The key of a request that has none to give, for sources that always give one (JWT). */
  public static final String NONE = "-";

  public final Source source;

  /** The header, parameter or claim name; null for {@link Source#IP}. */
  public final String name;

  public KeySpec(Source source, String name) {
    this.source = source;
    this.name = name;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof KeySpec)) {
      return false;
    }
    KeySpec k = (KeySpec) o;
    return source == k.source && Values.eq(name, k.name);
  }

  @Override
  public int hashCode() {
    return Values.hash(source, name);
  }

  @Override
  public String toString() {
    return source == Source.IP ? "ip" : source.name().toLowerCase() + ":" + name;
  }
}
