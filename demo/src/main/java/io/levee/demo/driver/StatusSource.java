package io.levee.demo.driver;

/**
 * The "state" column of the table: what Levee is doing for a row's resource right now (breaker
 * state, in flight). Today {@link ObservedStatus} infers it from what clients, the partner and the
 * database see. When the agent serves its status table ({@code /status} with the {@code http}
 * option, SPEC §4), an implementation that reads it replaces the guesswork here, and the limit
 * column can show the live adaptive limit.
 */
interface StatusSource {
  /** A few words about {@code row}'s resource over {@code window}; "" when there is nothing to say. */
  String state(Row row, Tick window);
}
