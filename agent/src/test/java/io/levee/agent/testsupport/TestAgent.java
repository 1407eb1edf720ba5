package io.levee.agent.testsupport;

import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Transformations;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs integrations into this JVM once and keeps transformation errors. It weaves with a plain
 * ByteBuddy agent builder, without the agent's own filters, because those leave every class under
 * {@code io.levee} alone, and the test applications here are.
 */
public final class TestAgent {
  private static final Set<String> INSTALLED = ConcurrentHashMap.newKeySet();
  private static final List<Throwable> ERRORS = new CopyOnWriteArrayList<>();

  private TestAgent() {}

  public static synchronized void install(Integration integration) {
    if (!INSTALLED.add(integration.name())) {
      return;
    }
    Instrumentation instrumentation = ByteBuddyAgent.install();
    AgentBuilder builder =
        new AgentBuilder.Default()
            .disableClassFormatChanges()
            .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
            .with(AgentBuilder.TypeStrategy.Default.DECORATE)
            .with(
                new AgentBuilder.Listener.Adapter() {
                  @Override
                  public void onError(
                      String typeName,
                      ClassLoader classLoader,
                      JavaModule module,
                      boolean loaded,
                      Throwable throwable) {
                    ERRORS.add(new IllegalStateException(typeName, throwable));
                  }

                  @Override
                  public void onTransformation(
                      TypeDescription type,
                      ClassLoader classLoader,
                      JavaModule module,
                      boolean loaded,
                      net.bytebuddy.dynamic.DynamicType dynamicType) {}
                });
    Transformations transformations = new Transformations();
    integration.addTo(transformations);
    transformations.addTo(builder).installOn(instrumentation);
  }

  /** Errors raised while transforming classes; a test asserts there are none. */
  public static List<Throwable> errors() {
    return ERRORS;
  }
}
