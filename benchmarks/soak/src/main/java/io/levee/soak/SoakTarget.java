package io.levee.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The application JVM as the soak sees it from outside, with the tools an operator has: the agent's
 * command line ({@code java -jar levee-agent.jar attach|reload|detach}), {@code jcmd} and {@code
 * /proc}. Nothing here runs inside the application.
 */
final class SoakTarget {
  /** The outcome of one command. */
  record Command(boolean ok, long millis, String output) {}

  /** One reading of the application after a full GC. */
  record Sample(
      double heapMb,
      double metaspaceMb,
      int threads,
      long liveClasses,
      long unloadedClasses,
      int leveeThreads) {}

  private final Path agentJar;
  private final long pid;
  private final String javaHome = System.getProperty("java.home");

  SoakTarget(Path agentJar, long pid) {
    this.agentJar = agentJar;
    this.pid = pid;
  }

  Command agent(String... args) {
    List<String> command = new ArrayList<>(List.of(tool("java"), "-jar", agentJar.toString()));
    command.add(args[0]);
    command.add(Long.toString(pid));
    command.addAll(List.of(args).subList(1, args.length));
    return run(command);
  }

  /** {@code jcmd Thread.print}: the application's threads and their stacks. */
  String threadDump() {
    return run(List.of(tool("jcmd"), Long.toString(pid), "Thread.print")).output();
  }

  /**
   * Forces a full GC, then reads the heap it kept (old generation and survivors) and metaspace from
   * the JVM's performance counters, classes from its class loaders (one {@code jcmd} each, few to
   * keep the soak's own CPU small) and the threads from {@code /proc}, where the JVM names each
   * native thread after its Java thread.
   */
  Sample sample() throws IOException {
    run(List.of(tool("jcmd"), Long.toString(pid), "GC.run"));
    Map<String, Long> counters =
        counters(run(List.of(tool("jcmd"), Long.toString(pid), "PerfCounter.print")).output());
    // Eden left out: it refills between the GC and this reading (at 2 000 requests/s the demo's 28
    // MB eden filled about four times a second), which made "heap after GC" swing by 25 MB from one
    // minute to the next. What a leak grows is the old generation; the survivors are what the
    // young collections since the full one kept (about 1 MB, requests in flight).
    long heap =
        counter(counters, "sun.gc.generation.0.space.1.used")
            + counter(counters, "sun.gc.generation.0.space.2.used")
            + counter(counters, "sun.gc.generation.1.space.0.used");
    long unloaded = counter(counters, "java.cls.unloadedClasses");
    long classes =
        liveClasses(
            run(List.of(tool("jcmd"), Long.toString(pid), "VM.classloader_stats")).output());
    List<String> names = threadNames();
    int levee = 0;
    for (String name : names) {
      if (name.startsWith("levee")) {
        levee++;
      }
    }
    return new Sample(
        heap / 1048576.0,
        counter(counters, "sun.gc.metaspace.used") / 1048576.0,
        names.size(),
        classes,
        unloaded,
        levee);
  }

  /**
   * The classes the class loaders hold now ({@code Total = LOADERS CLASSES ...}). Not the
   * loaded-minus-unloaded counters: those also count each retransformed class version, so they
   * climb with every attach and detach although no class stays behind.
   */
  static long liveClasses(String classLoaderStats) throws IOException {
    for (String line : classLoaderStats.split("\n")) {
      String[] cells = line.strip().split("\\s+");
      if (cells.length > 3 && cells[0].equals("Total") && cells[1].equals("=")) {
        return Long.parseLong(cells[3]);
      }
    }
    throw new IOException("no Total line in jcmd VM.classloader_stats");
  }

  private List<String> threadNames() throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc", pid + "", "task"))) {
      for (Path task : tasks) {
        try {
          names.add(Files.readString(task.resolve("comm")).strip());
        } catch (IOException e) {
          // The thread ended between the listing and the read: it is not counted.
        }
      }
    }
    return names;
  }

  private static Map<String, Long> counters(String text) {
    Map<String, Long> counters = new HashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && line.substring(eq + 1).strip().matches("\\d+")) {
        counters.put(line.substring(0, eq).strip(), Long.parseLong(line.substring(eq + 1).strip()));
      }
    }
    return counters;
  }

  private static long counter(Map<String, Long> counters, String name) throws IOException {
    Long value = counters.get(name);
    if (value == null) {
      throw new IOException("no performance counter " + name + " in jcmd PerfCounter.print");
    }
    return value;
  }

  private String tool(String name) {
    return Path.of(javaHome, "bin", name).toString();
  }

  private static Command run(List<String> command) {
    long start = System.nanoTime();
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      boolean ok = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
      return new Command(ok, (System.nanoTime() - start) / 1_000_000, output.strip());
    } catch (IOException e) {
      return new Command(false, (System.nanoTime() - start) / 1_000_000, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Command(false, (System.nanoTime() - start) / 1_000_000, e.toString());
    }
  }
}
