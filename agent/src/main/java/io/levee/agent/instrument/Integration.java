package io.levee.agent.instrument;

import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * One integration (servlet, http, jdbc): the type matchers and advice it adds to the agent's builder.
 * The lifecycle installs every integration on one builder, so a detach resets them all at once.
 */
public interface Integration {
  /** A short name for logs: {@code servlet}, {@code http}, {@code jdbc}. */
  String name();

  /** Adds this integration's {@code type(...).transform(...)} clauses to {@code builder}. */
  AgentBuilder extend(AgentBuilder builder);
}
