package io.levee.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.Weaver;
import io.levee.agent.log.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;

/**
 * Every hook that woven code of every integration calls exists in the bridge, public and static,
 * with the exact descriptor the weaver writes: the integrations name their hooks by strings, and a
 * typo would only show as a {@code NoSuchMethodError} inside the application.
 */
class HookNamesTest {
  @Test
  void everyHookTheWeaverCallsIsAPublicStaticMethodOfTheBridge() throws Exception {
    AgentLog log =
        new AgentLog(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            AgentLog.Level.WARN);
    List<Integration> integrations = Integrations.all(log);
    assertThat(integrations)
        .extracting(Integration::name)
        .containsExactly(
            "http", "servlet", "jdbc", "apache4", "apache5", "okhttp", "jdkhttp", "apache5-async");

    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (Integration integration : integrations) {
      Transformations transformations = new Transformations();
      integration.addTo(transformations);
      List<String[]> hooks = transformations.hooks();
      assertThat(hooks).as(integration.name() + " calls hooks").isNotEmpty();
      for (String[] hook : hooks) {
        checked++;
        if (!inBridge(hook[0], hook[1], hook[2])) {
          missing.add(integration.name() + ": " + hook[0] + "." + hook[1] + hook[2]);
        }
      }
    }
    List<String[]> methodHooks = Weaver.methodHooks();
    assertThat(methodHooks).as("the method kind's hooks").hasSize(4);
    for (String[] hook : methodHooks) {
      checked++;
      if (!inBridge(hook[0], hook[1], hook[2])) {
        missing.add("method: " + hook[0] + "." + hook[1] + hook[2]);
      }
    }
    assertThat(missing).as("hooks the bridge lacks").isEmpty();
    assertThat(checked).isGreaterThan(20);
  }

  private static boolean inBridge(String owner, String name, String descriptor)
      throws ClassNotFoundException {
    Class<?> bridge = Class.forName(owner.replace('/', '.'), false, null);
    for (Method m : bridge.getDeclaredMethods()) {
      if (m.getName().equals(name)
          && Type.getMethodDescriptor(m).equals(descriptor)
          && Modifier.isStatic(m.getModifiers())
          && Modifier.isPublic(m.getModifiers())
          && Modifier.isPublic(bridge.getModifiers())) {
        return true;
      }
    }
    return false;
  }
}
