package io.levee.rules.engine;

import io.levee.bootstrap.Permit;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Priority;

/**
 * The token of an admitted call: which resource, whether the system permit was taken, whether the
 * call is timed, and whether the resource's circuit breaker admitted it (false only in monitor
 * mode, for a call it refused that runs anyway). One is preallocated for each combination, so
 * admitting allocates nothing.
 */
final class EnginePermit extends Permit {
  /** Null for a call only the system rule tracks. */
  final ResourceRuntime resource;

  /** Null when the call did not take the system permit. */
  final SystemRuntime system;

  /** False when the breaker refused the call (monitor mode), so it holds no half-open probe. */
  final boolean breakerAdmitted;

  /** Whether the call needs its start and end instants: a policy or the metrics time it. */
  final boolean timed;

  /** The class the system permit was taken for (see {@code Engine#servlet}); 0 without one. */
  final int systemClass;

  /** The priority the system permit was taken with: the resource's, normal without one. */
  final Priority systemPriority;

  EnginePermit(ResourceRuntime resource, SystemRuntime system) {
    this(resource, system, true);
  }

  EnginePermit(ResourceRuntime resource, SystemRuntime system, boolean breakerAdmitted) {
    this(resource, system, breakerAdmitted, 0);
  }

  EnginePermit(
      ResourceRuntime resource, SystemRuntime system, boolean breakerAdmitted, int systemClass) {
    super(
        millis(resource == null ? 0 : resource.rule.timeouts.connectNanos),
        millis(resource == null ? 0 : resource.rule.timeouts.readNanos),
        seconds(resource == null ? 0 : resource.rule.timeouts.queryNanos),
        resource == null ? 0 : resource.id,
        backpressure(resource, system));
    this.resource = resource;
    this.system = system;
    this.breakerAdmitted = breakerAdmitted;
    this.timed = system != null || (resource != null && resource.timesCalls);
    this.systemClass = systemClass;
    this.systemPriority = resource == null ? Priority.NORMAL : resource.priority;
  }

  /**
   * A servlet resource's own {@code backpressure} when it says, else {@code system}'s when the
   * system rule governs the request; never for an outbound call.
   */
  private static boolean backpressure(ResourceRuntime resource, SystemRuntime system) {
    if (resource != null && resource.rule.backpressure != null) {
      return resource.rule.backpressure;
    }
    boolean inbound = resource == null || resource.rule.match.kind == CallKind.SERVLET;
    return inbound && system != null && system.rule.backpressure;
  }

  /**
   * Who answers for a request this permit admitted that failed after a refused call: the view whose
   * {@code backpressure} applies ({@link #backpressure(ResourceRuntime, SystemRuntime)}).
   */
  ResourceView backpressureBy() {
    return resource != null && resource.rule.backpressure != null ? resource : system;
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
    return "permit of "
        + (resource == null ? "system" : resource.name())
        + (resource != null && system != null ? " and system" : "");
  }
}
