package io.levee.agent.cli;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * The attach API ({@code com.sun.tools.attach.VirtualMachine}) by reflection, found through
 * ByteBuddy's attachment providers so that the same jar works on Java 8 (tools.jar), 9+ and J9.
 * Used to list JVMs and to read a JVM's system properties, where the running agent publishes its
 * state: neither loads anything into the target.
 */
final class Jvms {
  static final String JVM_ARGS = "sun.jvm.args";
  static final String JVM_FLAGS = "sun.jvm.flags";

  private final Class<?> vmType;

  private Jvms(Class<?> vmType) {
    this.vmType = vmType;
  }

  static Jvms open() throws CliFailure {
    ByteBuddyAgent.AttachmentProvider.Accessor accessor;
    try {
      accessor = ByteBuddyAgent.AttachmentProvider.DEFAULT.attempt();
    } catch (Throwable t) {
      throw new CliFailure(AttachErrors.NO_ATTACH_MODULE);
    }
    if (!accessor.isAvailable()) {
      throw new CliFailure(AttachErrors.NO_ATTACH_MODULE);
    }
    return new Jvms(accessor.getVirtualMachineType());
  }

  /** Every JVM the attach API sees: {pid, display name}. */
  List<String[]> list() throws CliFailure {
    try {
      List<?> descriptors = (List<?>) vmType.getMethod("list").invoke(null);
      Class<?> descriptor =
          Class.forName(
              vmType.getPackage().getName() + ".VirtualMachineDescriptor",
              false,
              vmType.getClassLoader());
      Method id = descriptor.getMethod("id");
      Method name = descriptor.getMethod("displayName");
      List<String[]> jvms = new ArrayList<String[]>();
      for (Object d : descriptors) {
        jvms.add(new String[] {(String) id.invoke(d), (String) name.invoke(d)});
      }
      return jvms;
    } catch (Throwable t) {
      throw new CliFailure("cannot list the JVMs: " + AttachErrors.describe("?", t));
    }
  }

  /**
   * The system properties of the JVM {@code pid}, with {@value #JVM_ARGS} and {@value #JVM_FLAGS}
   * from its agent properties: the options it was started with, which say whether it ever had an
   * agent and which flags it was given.
   */
  Properties properties(String pid) throws CliFailure {
    Object vm;
    try {
      vm = vmType.getMethod("attach", String.class).invoke(null, pid);
    } catch (Throwable t) {
      throw new CliFailure(AttachErrors.describe(pid, t));
    }
    try {
      Properties properties = (Properties) vmType.getMethod("getSystemProperties").invoke(vm);
      Properties agent = (Properties) vmType.getMethod("getAgentProperties").invoke(vm);
      for (String key : new String[] {JVM_ARGS, JVM_FLAGS}) {
        if (agent.getProperty(key) != null) {
          properties.setProperty(key, agent.getProperty(key));
        }
      }
      return properties;
    } catch (Throwable t) {
      throw new CliFailure(AttachErrors.describe(pid, t));
    } finally {
      try {
        vmType.getMethod("detach").invoke(vm);
      } catch (Throwable ignored) {
        // The connection closes with this process anyway.
      }
    }
  }
}
