package io.levee.agent.testing;

import io.levee.agent.AgentLog;
import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Installs integrations into this JVM as the agent would, through the same {@link AgentInstaller}.
 * The bridge is already in the boot class loader ({@code -Xbootclasspath/a} in the build).
 */
public final class TestAgent {
  private TestAgent() {}

  public static ResettableClassFileTransformer install(Integration... integrations) {
    Instrumentation inst = ByteBuddyAgent.install();
    AgentLog log = new AgentLog(new PrintStream(System.err, true), AgentLog.Level.WARN);
    return AgentInstaller.install(inst, Arrays.asList(integrations), log);
  }

  public static void reset(ResettableClassFileTransformer transformer) {
    transformer.reset(ByteBuddyAgent.getInstrumentation(), 
        net.bytebuddy.agent.builder.AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
  }
}
