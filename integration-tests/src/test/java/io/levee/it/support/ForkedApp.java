package io.levee.it.support;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A test application in its own JVM, optionally with the packaged agent: the real start-up path
 * ({@code -javaagent:}), never an in-process shortcut. Output goes to files under {@code target/},
 * the application prints {@code READY <port>} once it listens, and {@link #close()} (or, if a test
 * JVM dies, the application's stdin reaching EOF) ends it. Started by {@link JvmProcess}, which
 * also kills it if the test JVM exits first.
 */
public final class ForkedApp implements AutoCloseable {
  private static final Pattern READY = Pattern.compile("(?m)^READY (\\d+)$");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  /** Agent options a developer may have in the environment; they must not leak into a test. */
  private static final List<String> AGENT_ENV =
      List.of("LEVEE_RULES", "LEVEE_ENABLED", "LEVEE_HTTP", "LEVEE_LOG", "LEVEE_LOG_FILE");

  private final String name;
  private final JvmProcess process;
  private final Path stdout;
  private final Path stderr;
  private final int port;

  private ForkedApp(String name, JvmProcess process, Path stdout, Path stderr) {
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
    return process.output();
  }

  public String stderr() {
    return process.errors();
  }

  /** The agent's own log lines (prefix {@code [levee]}) written to stderr so far. */
  public List<String> leveeLines() {
    return stderr().lines().filter(l -> l.contains("[levee]")).collect(Collectors.toList());
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills it at once (SIGKILL): no shutdown hook runs, as when a host dies. */
  public void kill() {
    process.kill();
  }

  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", port " + port + ")";
  }

  private int awaitReady() {
    Optional<MatchResult> ready;
    try {
      ready = process.awaitReady(START_TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException(e);
    }
    if (ready.isPresent()) {
      return Integer.parseInt(ready.get().group(1));
    }
    if (!process.isAlive()) {
      throw failure("exited with status " + process.exitValue() + " before it was ready");
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
    private String classPath;

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

    /** A JVM option, e.g. {@code -Djavax.net.ssl.trustStore=…}. */
    public Builder jvmOption(String option) {
      jvmArgs.add(option);
      return this;
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

    /**
     * The application's class path, by default {@link TestPaths#applicationClassPath()} (e.g. with
     * another line of a client: {@link ClientLines#applicationClassPath}).
     */
    public Builder classPath(String value) {
      this.classPath = value;
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
      JvmCommand jvm = JvmProcess.java(jdk.home()).options("-Xmx256m", "-XX:+UseSerialGC");
      if (agentOptions != null) {
        jvm.agent(TestPaths.agentJar(), agentOptions);
      }
      jvm.options(jvmArgs)
          .main(
              classPath != null ? classPath : TestPaths.applicationClassPath(), mainClass.getName())
          .args(args)
          .withoutEnv(AGENT_ENV::contains)
          .env(env)
          .output(out, err)
          .ready(READY)
          .killOnExit();
      try {
        return new ForkedApp(id + " on " + jdk, jvm.start(), out, err);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start " + jvm.commandLine(), e);
      }
    }
  }
}
