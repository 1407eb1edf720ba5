package io.levee.rules.model;

/** {@code rate-limit.per}: {@code ip}, {@code header:NAME} or {@code param:NAME}. */
public final class KeySpec {
  public enum Source {
    IP,
    HEADER,
    PARAM
  }

  public final Source source;

  /** The header or parameter name; null for {@link Source#IP}. */
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
