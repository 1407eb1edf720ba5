package io.levee.agent.otel;

import io.levee.rules.engine.Decisions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tags the OpenTelemetry span of each call Levee decided on (SPEC §5.5): {@code levee.resource},
 * {@code levee.decision} and, when blocked or when it would have been, {@code levee.reason}.
 *
 * <p>It reaches the OpenTelemetry Java agent's own copy of the API, which that agent puts on the
 * boot class path under {@code io.opentelemetry.javaagent.shaded}, through method handles: Levee
 * has no compile-time dependency on OpenTelemetry and, without its agent, loads none of this.
 *
 * <p>Which span is the call's depends on which agent's code runs outermost, and that is fixed by
 * which agent registered its class transformer first: the later one's code wraps the earlier one's.
 * An inbound request's server span is started by the container's instrumentation, before any
 * servlet runs, so it is the current span either way. An outbound call's client span is started by
 * OpenTelemetry's code in the very methods Levee decides in:
 *
 * <ul>
 *   <li>OpenTelemetry arrived after Levee ({@code inner}): its code runs first, so the current span
 *       at Levee's decision is the call's client span, and it is tagged;
 *   <li>OpenTelemetry was there first (a later {@code -javaagent}, or Levee attached at run time):
 *       Levee decides before that span starts. A blocked call then never reaches OpenTelemetry's
 *       code, so Levee starts and ends a span of its own for it, a child of the current one; an
 *       admitted call's span starts after the decision and is not tagged, rather than tag the
 *       parent (a request's server span) with another resource's decision.
 * </ul>
 *
 * A {@code method} resource has no span of its own in OpenTelemetry, so it gets Levee's span when
 * blocked and nothing otherwise.
 *
 * <p>Concurrency: immutable once built; called on the application's threads.
 */
public final class SpanTags implements Decisions {
  static final String PACKAGE = "io.opentelemetry.javaagent.shaded.io.opentelemetry.api.";
  static final String SPAN = PACKAGE + "trace.Span";

  private static final String SERVLET = "servlet";
  private static final String METHOD = "method";

  private final boolean inner;
  private final MethodHandle current;
  private final MethodHandle setAttribute;
  private final MethodHandle spanBuilder;
  private final MethodHandle setKind;
  private final MethodHandle start;
  private final MethodHandle setStatus;
  private final MethodHandle end;
  private final Object tracer;
  private final Object client;
  private final Object internal;
  private final Object error;

  private SpanTags(boolean inner) throws Throwable {
    this.inner = inner;
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    Class<?> span = boot(SPAN);
    Class<?> tracerType = boot(PACKAGE + "trace.Tracer");
    Class<?> builder = boot(PACKAGE + "trace.SpanBuilder");
    Class<?> kind = boot(PACKAGE + "trace.SpanKind");
    Class<?> status = boot(PACKAGE + "trace.StatusCode");
    Class<?> global = boot(PACKAGE + "GlobalOpenTelemetry");
    current = erase(lookup.findStatic(span, "current", MethodType.methodType(span)));
    setAttribute =
        erase(
            lookup.findVirtual(
                span, "setAttribute", MethodType.methodType(span, String.class, String.class)));
    spanBuilder =
        erase(
            lookup.findVirtual(
                tracerType, "spanBuilder", MethodType.methodType(builder, String.class)));
    setKind =
        erase(lookup.findVirtual(builder, "setSpanKind", MethodType.methodType(builder, kind)));
    start = erase(lookup.findVirtual(builder, "startSpan", MethodType.methodType(span)));
    setStatus =
        erase(
            lookup.findVirtual(
                span, "setStatus", MethodType.methodType(span, status, String.class)));
    end = erase(lookup.findVirtual(span, "end", MethodType.methodType(void.class)));
    tracer =
        lookup
            .findStatic(global, "getTracer", MethodType.methodType(tracerType, String.class))
            .invokeWithArguments("io.levee");
    client = constant(kind, "CLIENT");
    internal = constant(kind, "INTERNAL");
    error = constant(status, "ERROR");
  }

  /** Whether the OpenTelemetry Java agent's API is on the boot class path now. */
  static boolean present() {
    try {
      boot(SPAN);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Tags for an OpenTelemetry agent found now; {@code inner}: it arrived after Levee's transformer,
   * so its code runs inside Levee's. Throws when its API is absent or not the one expected.
   */
  static SpanTags of(boolean inner) throws Throwable {
    return new SpanTags(inner);
  }

  @Override
  public void decided(String resource, String kind, String decision, String reason) {
    try {
      if (SERVLET.equals(kind) || inner && !METHOD.equals(kind)) {
        tag((Object) current.invokeExact(), resource, decision, reason);
      } else if (BLOCKED.equals(decision)) {
        own(resource, kind, reason);
      }
    } catch (Throwable t) {
      // Tracing is an extra: a failing tracer leaves the call as it was decided.
    }
  }

  private void tag(Object span, String resource, String decision, String reason) throws Throwable {
    Object s =
        (Object) setAttribute.invokeExact(span, (Object) "levee.resource", (Object) resource);
    s = (Object) setAttribute.invokeExact(span, (Object) "levee.decision", (Object) decision);
    if (reason != null) {
      s = (Object) setAttribute.invokeExact(span, (Object) "levee.reason", (Object) reason);
    }
  }

  /** A span for a blocked call that no instrumentation will see: named for the resource. */
  private void own(String resource, String kind, String reason) throws Throwable {
    Object builder = (Object) spanBuilder.invokeExact(tracer, (Object) ("levee " + resource));
    builder = (Object) setKind.invokeExact(builder, METHOD.equals(kind) ? internal : client);
    Object span = (Object) start.invokeExact(builder);
    tag(span, resource, BLOCKED, reason);
    Object s =
        (Object) setStatus.invokeExact(span, error, (Object) ("levee: blocked by " + reason));
    s = (Object) end.invokeExact(span);
  }

  private static Class<?> boot(String name) throws ClassNotFoundException {
    return Class.forName(name, false, null);
  }

  /** Every handle as Objects in and out, so that this class names no OpenTelemetry type. */
  private static MethodHandle erase(MethodHandle h) {
    return h.asType(h.type().generic());
  }

  private static Object constant(Class<?> type, String name) throws ReflectiveOperationException {
    return type.getField(name).get(null);
  }
}
