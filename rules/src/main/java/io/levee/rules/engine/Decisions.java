package io.levee.rules.engine;

/**
 * Told of each decision, on the thread of the call decided and before the call goes on or gets its
 * answer, for tracing (SPEC §5.5). Unset in the engine when nothing listens, which costs the
 * decision one volatile read.
 *
 * <p>A call decided by both the {@code system} rule and a resource is told once per decider, the
 * resource last, and not told again when the system rule blocks it.
 */
public interface Decisions {
  String ADMITTED = "admitted";
  String BLOCKED = "blocked";
  String WOULD_BLOCK = "would-block";

  /**
   * {@code resource}: the resource's name or {@code system}; {@code kind}: {@code servlet}, {@code
   * http}, {@code jdbc} or {@code method}; {@code decision}: one of the constants; {@code reason}:
   * the policy that blocked or would have blocked ({@code rate-limit}, {@code concurrency}, {@code
   * adaptive}, {@code circuit-open}, {@code system}), null when admitted. Must not throw.
   */
  void decided(String resource, String kind, String decision, String reason);
}
