package io.levee.demo.driver;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's runtime-attach step, kept apart: with {@code --attach} the application starts without
 * the agent and this runs {@code java -jar levee-agent.jar attach <pid> --rules FILE} (SPEC §3), as a
 * user would on a server they cannot restart. Until the agent ships that command it answers with a
 * usage error, and the demo says so and goes on unprotected.
 */
final class AttachHook {
  private AttachHook() {}

  /** True when the agent is now in the application. */
  static boolean attach(Path agentJar, Path rules, long pid, PrintStream out) {
    List<String> command =
        List.of(Java.binary(), "-jar", agentJar.toString(), "attach", Long.toString(pid), "--rules",
            rules.toString());
    out.println("  $ " + String.join(" ", command.subList(1, command.size())));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes()).strip();
      boolean done = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
      if (!text.isEmpty()) {
        text.lines().forEach(line -> out.println("    " + line));
      }
      if (!done) {
        out.println("  attach did not succeed: the application runs unprotected");
      }
      return done;
    } catch (IOException e) {
      out.println("  cannot run the attach command (" + e + "): the application runs unprotected");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
