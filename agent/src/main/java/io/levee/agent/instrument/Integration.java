package io.levee.agent.instrument;

/**
 * One integration (servlet, http, jdbc): the type matchers and advice it adds to the agent's
 * {@link Weaver}. Every integration goes into one weaver, so a detach resets them all at once.
 */
public interface Integration {
  /** A short name for logs: {@code servlet}, {@code http}, {@code jdbc}. */
  String name();

  /** Adds this integration's matchers and transformers to {@code transformations}. */
  void addTo(Transformations transformations);
}
