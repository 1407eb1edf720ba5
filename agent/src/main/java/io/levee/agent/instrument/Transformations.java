package io.levee.agent.instrument;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * What the integrations ask the {@link Weaver} to do: pairs of a type matcher and the transformer
 * (advice) for the types it matches. A type matched by several pairs gets every transformer, in the
 * order they were added.
 */
public final class Transformations {
  private final List<AgentBuilder.RawMatcher> matchers = new ArrayList<AgentBuilder.RawMatcher>();
  private final List<AgentBuilder.Transformer> transformers =
      new ArrayList<AgentBuilder.Transformer>();

  /** Adds {@code transformer} for the types {@code matcher} matches. */
  public Transformations add(AgentBuilder.RawMatcher matcher, AgentBuilder.Transformer transformer) {
    matchers.add(matcher);
    transformers.add(transformer);
    return this;
  }

  /** Adds {@code transformer} for the types {@code type} matches, whatever their loader. */
  public Transformations add(
      ElementMatcher<? super TypeDescription> type, AgentBuilder.Transformer transformer) {
    return add(new AgentBuilder.RawMatcher.ForElementMatchers(type), transformer);
  }

  /**
   * Adds every pair to {@code builder} as {@code type(matcher).transform(transformer)}: for tests
   * that weave an integration without the agent's {@link Weaver} and its filters.
   */
  public AgentBuilder addTo(AgentBuilder builder) {
    AgentBuilder b = builder;
    for (int i = 0; i < matchers.size(); i++) {
      b = b.type(matchers.get(i)).transform(transformers.get(i));
    }
    return b;
  }

  int size() {
    return matchers.size();
  }

  AgentBuilder.RawMatcher matcher(int i) {
    return matchers.get(i);
  }

  AgentBuilder.Transformer transformer(int i) {
    return transformers.get(i);
  }

  List<AgentBuilder.RawMatcher> matchers() {
    return Collections.unmodifiableList(matchers);
  }
}
