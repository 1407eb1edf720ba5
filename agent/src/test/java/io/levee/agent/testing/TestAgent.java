package io.levee.agent.testing;

import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Weaver;
import io.levee.agent.log.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * Installs integrations into this JVM once, with the agent's {@link Weaver}, and keeps what it
 * could not weave. The weaver is the one for tests, which also weaves classes under {@code
 * io.levee} (where the test applications here are); the agent's never does. An integration that
 * weaves what other tests use as a tool (the JDK's HTTP client) is taken out again with {@link
 * #uninstall}, as a detach does.
 */
public final class TestAgent {
  private static final Map<String, Weaver> INSTALLED = new ConcurrentHashMap<>();
  private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();

  private TestAgent() {}

  public static synchronized void install(Integration integration) {
    if (INSTALLED.containsKey(integration.name())) {
      return;
    }
    AgentLog log =
        new AgentLog(new PrintStream(LOG, true, StandardCharsets.UTF_8), AgentLog.Level.WARN);
    Weaver weaver = Weaver.forTests(List.of(integration), log);
    AgentInstaller.install(ByteBuddyAgent.install(), weaver, log, false);
    INSTALLED.put(integration.name(), weaver);
  }

  /** Restores what {@code integration} wove to its original bytecode. */
  public static synchronized void uninstall(Integration integration) {
    Weaver weaver = INSTALLED.remove(integration.name());
    if (weaver != null) {
      AgentInstaller.reset(ByteBuddyAgent.install(), weaver);
    }
  }

  /** The weaver's warnings (a class it could not weave); a test asserts there are none. */
  public static synchronized List<String> errors() {
    List<String> errors = new ArrayList<>();
    for (String line : LOG.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        errors.add(line);
      }
    }
    return errors;
  }
}
