package io.levee.soak;

import io.levee.demo.driver.AppProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** The demo application as the soak starts it: as the demo does, with a fixed heap of its own. */
final class SoakApp {
  /**
   * The soak's heap: fixed, as in production. With the demo's 64 MB start the young generation
   * stayed at 28 MB of eden and 3.5 MB survivors; at 2 000 requests/s a one-second backlog
   * overflowed the survivors into the old generation, which filled in seconds, and full GCs every
   * 10-20 s (300 ms each on one core) kept the backlog alive: the bare application failed requests
   * after a stall with no agent doing anything.
   */
  static final List<String> HEAP = List.of("-Xms256m", "-Xmx256m");

  /** Where the soak's outputs go unless told: its report, the application's log. */
  static final Path OUT = Path.of("benchmarks/soak/target");

  private SoakApp() {}

  /** Starts it with {@code agentArg} (a {@code -javaagent} option, or null for none). */
  static AppProcess start(
      Path demoTarget, String agentArg, String partnerUrl, Path log, PrintStream console)
      throws IOException {
    return AppProcess.start(demoTarget, agentArg, partnerUrl, log, console, HEAP);
  }
}
