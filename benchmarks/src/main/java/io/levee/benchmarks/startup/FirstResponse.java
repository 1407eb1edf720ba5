package io.levee.benchmarks.startup;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Start-up time of an application: from the moment its JVM is started to its first successful (200)
 * answer, for several variants of its command line ("cases", e.g. without and with the agent).
 *
 * <p>The cases run in rounds, one start of each per round and in a rotating order, so a change in
 * the machine's load falls on all of them alike; a first round is run and discarded, because the
 * first start after a build pays for reading the jars from disk. The poller runs in this JVM, which
 * is warm before the clock starts, and asks every {@value #POLL_MILLIS} ms; a refused connection
 * answers at once, so the time is late by at most one poll interval.
 *
 * <p>Usage: {@code FirstResponse OUT_CSV RUNS PATH HEADER CASE... -- COMMAND...} where {@code CASE}
 * is {@code name=jvm args separated by spaces} (may be empty), {@code HEADER} is {@code Name:
 * value} or {@code -}, and the command contains {@code {case}} where the case's arguments go and
 * {@code {port}} for a free port. Each row of the CSV: {@code round,case,first_ms,ready_ms,cpu_ms}
 * (ready: the application printed a line starting with {@code READY}, -1 if never; cpu: user +
 * system time of the application's process at its first 200, which a busy machine inflates far less
 * than the wall time).
 */
public final class FirstResponse {
  private static final long POLL_MILLIS = 5;
  private static final long TIMEOUT_SECONDS = 180;

  private FirstResponse() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    String path = args[2];
    String header = args[3];
    Map<String, List<String>> cases = new LinkedHashMap<>();
    int i = 4;
    for (; !args[i].equals("--"); i++) {
      String[] nameAndArgs = args[i].split("=", 2);
      cases.put(nameAndArgs[0], split(nameAndArgs[1]));
    }
    List<String> template = List.of(args).subList(i + 1, args.length);
    List<String> names = new ArrayList<>(cases.keySet());
    Path logs = out.resolveSibling("logs");
    Files.createDirectories(logs);
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out), true)) {
      csv.println("round,case,first_ms,ready_ms,cpu_ms");
      for (int round = 0; round <= runs; round++) {
        for (int k = 0; k < names.size(); k++) {
          String name = names.get((k + round) % names.size());
          Path log = logs.resolve(name + "-" + round + ".log");
          long[] times = startOnce(command(template, cases.get(name)), path, header, log);
          String row =
              round
                  + ","
                  + name
                  + ","
                  + millis(times[0])
                  + ","
                  + millis(times[1])
                  + ","
                  + millis(times[2]);
          System.out.println((round == 0 ? "warm-up " : "") + row);
          if (round > 0) {
            csv.println(row);
          }
        }
      }
    }
  }

  /**
   * Nanoseconds from the start to the first 200 and to the READY line (-1 if none), and the CPU
   * time the application had used by the first 200 (-1 if the system does not tell).
   */
  private static long[] startOnce(List<String> command, String path, String header, Path log)
      throws Exception {
    int port = freePort();
    List<String> withPort = new ArrayList<>();
    for (String arg : command) {
      withPort.add(arg.replace("{port}", Integer.toString(port)));
    }
    URL url = new URL("http://127.0.0.1:" + port + path);
    ReadyLine output = new ReadyLine();
    JvmCommand builder = JvmProcess.command(withPort).lines(log, output);
    long start = System.nanoTime();
    output.start = start;
    JvmProcess process = builder.start();
    try {
      long deadline = start + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException("the application exited; see " + log);
        }
        if (answersOk(url, header)) {
          long first = System.nanoTime() - start;
          long cpu = process.handle().info().totalCpuDuration().map(d -> d.toNanos()).orElse(-1L);
          return new long[] {first, output.readyNanos, cpu};
        }
        Thread.sleep(POLL_MILLIS);
      }
      throw new IllegalStateException("no 200 within " + TIMEOUT_SECONDS + " s; see " + log);
    } finally {
      process.stop(Duration.ofSeconds(10));
    }
  }

  private static boolean answersOk(URL url, String header) {
    try {
      HttpURLConnection c = (HttpURLConnection) url.openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
      if (!header.equals("-")) {
        String[] nameValue = header.split(":", 2);
        c.setRequestProperty(nameValue[0].trim(), nameValue[1].trim());
      }
      int status = c.getResponseCode();
      InputStream body = status < 400 ? c.getInputStream() : c.getErrorStream();
      if (body != null) {
        body.readAllBytes();
        body.close();
      }
      c.disconnect();
      return status == 200;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Notes when the application printed its READY line, as the launcher's output thread hands it the
   * lines it copies to the log.
   */
  private static final class ReadyLine implements java.util.function.Consumer<String> {
    volatile long start;
    volatile long readyNanos = -1;

    @Override
    public void accept(String line) {
      if (readyNanos < 0 && line.startsWith("READY")) {
        readyNanos = System.nanoTime() - start;
      }
    }
  }

  private static List<String> command(List<String> template, List<String> caseArgs) {
    List<String> command = new ArrayList<>();
    for (String arg : template) {
      if (arg.equals("{case}")) {
        command.addAll(caseArgs);
      } else {
        command.add(arg);
      }
    }
    return command;
  }

  private static List<String> split(String args) {
    List<String> list = new ArrayList<>();
    for (String a : args.trim().split("\\s+")) {
      if (!a.isEmpty()) {
        list.add(a);
      }
    }
    return list;
  }

  /**
   * A free port below Linux's ephemeral range (32768 and up): polling a port in that range that
   * nobody listens on yet can connect the poller to itself (TCP simultaneous open), after which the
   * application cannot bind it.
   */
  private static int freePort() throws IOException {
    java.util.Random random = new java.util.Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = 20000 + random.nextInt(12000);
      try (ServerSocket s = new ServerSocket(port)) {
        return s.getLocalPort();
      } catch (IOException busy) {
        // taken: try another
      }
    }
    throw new IOException("no free port between 20000 and 32000");
  }

  private static String millis(long nanos) {
    return nanos < 0 ? "-1" : String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
  }
}
