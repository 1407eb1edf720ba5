package io.levee.agent.instrument;

import io.levee.rules.load.RuleError;
import io.levee.rules.model.RuleSet;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Map;

/**
 * Weaving that follows the rules in force rather than fixed APIs: the {@code method} kind, whose
 * resources name the classes to weave. The {@link Weaver} asks it about every class it sees, the
 * agent's lifecycle tells it of new rules and retransforms what it answers.
 */
public interface RuleWeaving {
  /** Whether some rule in force names classes to weave. */
  boolean active();

  /**
   * Inside a class definition, under the weaver's rules: the site number of each method of the
   * class (keyed by name and descriptor) to weave, or null when none is.
   */
  Map<String, Integer> targets(ClassLoader loader, String internalName, byte[] bytes);

  /** The loaded classes the rules in force weave: what a detach restores. */
  List<Class<?>> loaded(Instrumentation inst);

  /**
   * Puts {@code rules} in force for the weaver and returns the loaded classes to retransform for
   * them, or null when what they weave did not change.
   */
  List<Class<?>> change(Instrumentation inst, RuleSet rules);

  /**
   * After the classes {@link #change} returned ({@code done}) were retransformed: those a class
   * definition racing the change left woven for the rules before it, to retransform too.
   */
  List<Class<?>> straggling(Instrumentation inst, List<Class<?>> done);

  /**
   * What is wrong with {@code rules}, read from {@code file}, given the classes loaded now, as
   * located errors; empty when they can be put in force.
   */
  List<RuleError> check(Instrumentation inst, String file, RuleSet rules);
}
