package io.levee.load.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the run ran on, and the load average, read before and after. */
record Machine(String cpu, long processors, String os, String java, String load) {
  static Machine now() {
    String cpu = "?";
    long n = 0;
    String load = "?";
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          cpu = line.substring(line.indexOf(':') + 1).trim();
          n++;
        }
      }
      String[] l = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      load = l[0] + ", " + l[1] + ", " + l[2];
    } catch (IOException e) {
      // not Linux: leave it unknown
    }
    return new Machine(
        cpu,
        n,
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        load);
  }

  void describe(StringBuilder b, Machine after) {
    b.append("- Machine: ")
        .append(processors)
        .append(" CPUs, ")
        .append(cpu)
        .append(", ")
        .append(os)
        .append('\n');
    b.append("- JDK: ").append(java).append('\n');
    b.append("- Load average (1, 5, 15 min) before: `")
        .append(load)
        .append("`; after: `")
        .append(after.load)
        .append("`\n");
  }
}
