package io.levee.demo.driver;

import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The agent's command line as a user types it (SPEC §3), run from the demo: with {@code --attach}
 * the application starts without the agent and {@link #attach} runs {@code java -jar
 * levee-agent.jar attach <pid> --rules FILE --http HOST:PORT}, as on a server that cannot be
 * restarted; at the end {@link #status} shows the agent's own table.
 */
final class AttachHook {
  private AttachHook() {}

  /** True when the agent is now in the application. */
  static boolean attach(Path agentJar, Path rules, String http, long pid, PrintStream out) {
    boolean done =
        run(
            agentJar,
            out,
            "attach",
            Long.toString(pid),
            "--rules",
            rules.toString(),
            "--http",
            http,
            // The demo attaches to a JVM started without an agent, and says what that costs.
            "--force");
    if (!done) {
      out.println("  attach did not succeed: the application runs unprotected");
    }
    return done;
  }

  /** Prints {@code status <pid>}. */
  static void status(Path agentJar, long pid, PrintStream out) {
    run(agentJar, out, "status", Long.toString(pid));
  }

  private static boolean run(Path agentJar, PrintStream out, String... args) {
    List<String> command =
        new ArrayList<>(List.of(JvmProcess.javaBinary(), "-jar", agentJar.toString()));
    command.addAll(List.of(args));
    out.println("  $ java " + String.join(" ", command.subList(1, command.size())));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes()).strip();
      boolean done = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
      if (!text.isEmpty()) {
        text.lines().forEach(line -> out.println("    " + line));
      }
      return done;
    } catch (IOException e) {
      out.println("  cannot run the agent's command line (" + e + ")");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
