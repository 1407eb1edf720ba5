package io.levee.demo.driver;

/**
 * The "limit" and "state" columns of the table: what Levee is doing for a row's resource right now.
 * {@link AgentStatus} reads it from the agent's own {@code /status} (SPEC §4); {@link
 * ObservedStatus} infers it from what clients, the partner and the database see, for a run without
 * the agent's endpoint.
 */
interface StatusSource {
  /** Called once before each table is drawn, so every row of it shows the same moment. */
  default void refresh() {}

  /** The limit column for {@code row}; {@code configured} is what the rules file says. */
  default String limit(Row row, String configured) {
    return configured;
  }

  /**
   * A few words about {@code row}'s resource over {@code window}; "" when there is nothing to say.
   */
  String state(Row row, Tick window);
}
