package io.levee.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the application's CPU goes, by kind of thread, from {@code /proc/PID/task/TID/stat}: the
 * JVM names each native thread after its Java thread, so Tomcat's request threads, the JIT
 * compilers, the GC and the agent's own threads can be told apart from outside. Numbers in a name
 * are dropped, so all request threads add up to one row.
 */
final class SoakThreads {
  /** The key under which a snapshot holds when it was taken (ms, monotonic). */
  static final String AT = " at";

  private final Path tasks;

  SoakThreads(long pid) {
    tasks = Path.of("/proc", Long.toString(pid), "task");
  }

  /** CPU ms used so far by each kind of thread (threads that ended are missing). */
  Map<String, Long> snapshot() {
    Map<String, Long> millis = new TreeMap<>();
    millis.put(AT, System.nanoTime() / 1_000_000);
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        try {
          String s = Files.readString(task.resolve("stat"));
          String name = s.substring(s.indexOf('(') + 1, s.lastIndexOf(')')).replaceAll("\\d+", "#");
          String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
          long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
          millis.merge(name, ticks * 10, Long::sum);
        } catch (IOException | RuntimeException e) {
          // The thread ended between the listing and the read: it is not counted.
        }
      }
    } catch (IOException e) {
      // No /proc: nothing to say.
    }
    return millis;
  }

  /**
   * Prints the CPU each kind of thread used from {@code before} to {@code after}, largest first.
   */
  static void printDelta(
      PrintStream out, String title, Map<String, Long> before, Map<String, Long> after) {
    List<Map.Entry<String, Long>> rows = new ArrayList<>();
    for (Map.Entry<String, Long> e : after.entrySet()) {
      if (e.getKey().equals(AT)) {
        continue;
      }
      long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      if (d >= 50) {
        rows.add(Map.entry(e.getKey(), d));
      }
    }
    rows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    out.println("  CPU by thread, " + title + ":");
    for (Map.Entry<String, Long> r : rows) {
      out.printf(Locale.ROOT, "    %-22s %6d ms%n", r.getKey(), r.getValue());
    }
  }
}
