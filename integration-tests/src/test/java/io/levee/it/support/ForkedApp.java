package io.levee.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A test application in its own JVM, optionally with the packaged agent: the real start-up path
 * ({@code -javaagent:}), never an in-process shortcut. Output goes to files under {@code target/},
 * the application prints {@code READY <port>} once it listens, and {@link #close()} (or, if a test
 * JVM dies, the application's stdin reaching EOF) ends it.
 *
 * <p>Concurrency: {@link #LIVE} is touched by the test thread and the shutdown hook only.
 */
public final class ForkedApp implements AutoCloseable {
  private static final Pattern READY = Pattern.compile("(?m)^READY (\\d+)$");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  /** Agent options a developer may have in the environment; they must not leak into a test. */
  private static final List<String> AGENT_ENV =
      List.of("LEVEE_RULES", "LEVEE_ENABLED", "LEVEE_HTTP", "LEVEE_LOG", "LEVEE_LOG_FILE");

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
  }

  private final String name;
  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final int port;

  private ForkedApp(String name, Process process, Path stdout, Path stderr) {
    this.name = name;
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.port = awaitReady();
  }

  public static Builder of(Class<?> mainClass) {
    return new Builder(mainClass);
  }

  /** The application's process id, as the command line takes it. */
  public String pid() {
    return Long.toString(process.pid());
  }

  public int port() {
    return port;
  }

  public String url(String pathAndQuery) {
    return "http://127.0.0.1:" + port + pathAndQuery;
  }

  public String stdout() {
    return read(stdout);
  }

  public String stderr() {
    return read(stderr);
  }

  /** The agent's own log lines (prefix {@code [levee]}) written to stderr so far. */
  public List<String> leveeLines() {
    return stderr().lines().filter(l -> l.contains("[levee]")).collect(Collectors.toList());
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(process);
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", port " + port + ")";
  }

  private int awaitReady() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = READY.matcher(stdout());
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      if (!process.isAlive()) {
        throw failure("exited with status " + process.exitValue() + " before it was ready");
      }
      sleep(50);
    }
    close();
    throw failure("was not ready within " + START_TIMEOUT.toSeconds() + " s");
  }

  private IllegalStateException failure(String what) {
    return new IllegalStateException(
        String.format(
            "%s %s%n--- stdout %s%n%s%n--- stderr %s%n%s",
            name, what, stdout, tail(stdout()), stderr, tail(stderr())));
  }

  private static String tail(String log) {
    return log.length() <= 4000 ? log : "..." + log.substring(log.length() - 4000);
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Sleeps, turning an interrupt into an unchecked failure of the test. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** What to start: main class, JDK, agent options, extra system properties and arguments. */
  public static final class Builder {
    private final Class<?> mainClass;
    private Jdk jdk = Jdk.current();
    private String agentOptions;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private String name;

    private Builder(Class<?> mainClass) {
      this.mainClass = mainClass;
      this.name = mainClass.getSimpleName();
    }

    public Builder jdk(Jdk jdk) {
      this.jdk = jdk;
      return this;
    }

    /** Adds {@code -javaagent:<levee-agent.jar>=<options>}. */
    public Builder agent(String options) {
      this.agentOptions = options;
      return this;
    }

    /** The agent with {@code rules=<file>}. */
    public Builder rules(Path rulesFile) {
      return agent("rules=" + rulesFile.toAbsolutePath());
    }

    public Builder systemProperty(String key, String value) {
      jvmArgs.add("-D" + key + "=" + value);
      return this;
    }

    /** An environment variable of the application, e.g. the database it reaches. */
    public Builder env(String key, String value) {
      env.put(key, value);
      return this;
    }

    public Builder args(String... values) {
      args.addAll(List.of(values));
      return this;
    }

    /** A name for the log files and messages, e.g. {@code servlet-tomcat-jdk17}. */
    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public ForkedApp start() {
      String id = name + "-" + SEQUENCE.incrementAndGet();
      Path dir = Paths.get(System.getProperty("levee.work.dir", "target/it-work"));
      Path out = dir.resolve(id + ".stdout.log");
      Path err = dir.resolve(id + ".stderr.log");
      List<String> command = new ArrayList<>();
      command.add(jdk.java().toString());
      command.add("-Xmx256m");
      command.add("-XX:+UseSerialGC");
      if (agentOptions != null) {
        command.add(
            "-javaagent:"
                + TestPaths.agentJar()
                + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
      }
      command.addAll(jvmArgs);
      command.add("-cp");
      command.add(TestPaths.applicationClassPath());
      command.add(mainClass.getName());
      command.addAll(args);
      ProcessBuilder builder = new ProcessBuilder(command);
      Map<String, String> env = builder.environment();
      AGENT_ENV.forEach(env::remove);
      env.putAll(this.env);
      builder.redirectOutput(out.toFile()).redirectError(err.toFile());
      try {
        Files.createDirectories(dir);
        Process process = builder.start();
        LIVE.add(process);
        return new ForkedApp(id + " on " + jdk, process, out, err);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start " + command, e);
      }
    }
  }
}
