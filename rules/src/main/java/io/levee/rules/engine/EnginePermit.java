package io.levee.rules.engine;

import io.levee.bootstrap.Permit;

/**
 * The token of an admitted call: which resource and whether the system permit was taken. One is
 * preallocated per resource, per resource-with-system and for system alone, so admitting allocates
 * nothing; what it carries is fixed by where the call matched, never by the call.
 */
final class EnginePermit extends Permit {
  /** Null for a call only the system rule tracks. */
  final ResourceRuntime resource;
  /** Null when the call did not take the system permit. */
  final SystemRuntime system;

  EnginePermit(ResourceRuntime resource, SystemRuntime system) {
    super(
        millis(resource == null ? 0 : resource.rule.timeouts.connectNanos),
        millis(resource == null ? 0 : resource.rule.timeouts.readNanos),
        seconds(resource == null ? 0 : resource.rule.timeouts.queryNanos));
    this.resource = resource;
    this.system = system;
  }

  static EnginePermit of(ResourceRuntime resource) {
    return new EnginePermit(resource, null);
  }

  /** Rounded up, so a timeout of 1 µs is 1 ms rather than 0, which would mean infinite. */
  private static int millis(long nanos) {
    return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999L) / 1_000_000L);
  }

  private static int seconds(long nanos) {
    return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999_999L) / 1_000_000_000L);
  }

  @Override
  public String toString() {
    return "permit of " + (resource == null ? "system" : resource.name())
        + (resource != null && system != null ? " and system" : "");
  }
}
