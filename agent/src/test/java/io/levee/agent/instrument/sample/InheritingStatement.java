package io.levee.agent.instrument.sample;

import java.sql.Statement;

/** A statement whose {@code execute} it inherits from {@link InheritedBase}. */
public abstract class InheritingStatement extends InheritedBase implements Statement {}
