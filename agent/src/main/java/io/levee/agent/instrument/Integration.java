package io.levee.agent.instrument;

/**
 * One integration (servlet, http, jdbc): the type rules and hooks it adds to the agent's {@link
 * Weaver}, and the part of the bridge it installs. Every integration goes into one weaver, so a
 * detach resets them all at once.
 */
public interface Integration {
  /** A short name for logs: {@code servlet}, {@code http}, {@code jdbc}. */
  String name();

  /**
   * Adds this integration's rules to {@code transformations}, and installs what its hooks in the
   * bridge call into, if anything: before any class is woven.
   */
  void addTo(Transformations transformations);
}
