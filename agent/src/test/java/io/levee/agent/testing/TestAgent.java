package io.levee.agent.testing;

import io.levee.agent.AgentLog;
import io.levee.agent.http.HttpUrlConnectionIntegration;
import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import java.io.PrintStream;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * Installs the http integration into this JVM once, as the agent does, through the same
 * {@link AgentInstaller}. The bridge is already in the boot class loader ({@code -Xbootclasspath/a}
 * in the build), as the agent's nested jar puts it there in production.
 */
public final class TestAgent {
  private static boolean installed;

  private TestAgent() {}

  public static synchronized void installHttp() {
    if (installed) {
      return;
    }
    List<Integration> integrations = List.of(new HttpUrlConnectionIntegration());
    AgentLog log = new AgentLog(new PrintStream(System.err, true), AgentLog.Level.WARN);
    AgentInstaller.install(ByteBuddyAgent.install(), integrations, log);
    installed = true;
  }
}
