package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import io.levee.it.support.Jdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Jetty 12 from its {@code jetty-home} distribution, run by its own {@code start.jar} with a
 * scratch {@code jetty.base} that enables one servlet environment (ee8 or ee10), its deployer and
 * its JSP support, and deploys the {@link CorpusWebapp} at {@code /corpus}.
 */
final class Jetty implements Distribution {
  private final Path home;
  private final String environment;
  private Path template;

  private Jetty(Path home, String environment) {
    this.home = home;
    this.environment = environment;
  }

  /** The unpacked Jetty 12 with the {@code environment} ({@code ee8}, {@code ee10}) enabled. */
  static Jetty environment(String environment) {
    return new Jetty(Distribution.unpacked("jetty-home-12."), environment);
  }

  @Override
  public String name() {
    return home.getFileName() + "-" + environment;
  }

  @Override
  public Launched launch(Way way, String subject, Jdk jdk) {
    Path base = Scratch.fresh(subject + "-" + way.name().toLowerCase());
    Scratch.copyTree(configured(subject, jdk), base);
    try {
      Files.createDirectories(base.resolve("tmp"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int port = Scratch.freePort();
    List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
    command.addAll(way.jvmOptions(subject));
    command.addAll(Distribution.JVM_OPTIONS);
    command.addAll(
        List.of(
            // JSPs compile into the scratch base, so that every run compiles them afresh.
            "-Djava.io.tmpdir=" + base.resolve("tmp"),
            "-jar",
            home.resolve("start.jar").toString(),
            "jetty.http.host=127.0.0.1",
            "jetty.http.port=" + port));
    ContainerProcess process =
        ContainerProcess.start(
            name() + " " + way + " on " + jdk,
            command,
            Map.of(),
            base,
            base.resolve("logs/console.out"),
            port,
            "/corpus/");
    return new Launched(process, base);
  }

  /**
   * A base with the environment's modules enabled and the webapp in {@code webapps}: the operator's
   * step before the first start, done once (start.jar takes seconds to resolve the modules) and
   * copied for each way.
   */
  private Path configured(String subject, Jdk jdk) {
    if (template == null) {
      Path base = Scratch.fresh(subject + "-configured");
      try {
        Files.createDirectories(base.resolve("logs"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      configure(base, jdk, "--add-modules=http," + environment + "-deploy," + environment + "-jsp");
      CorpusWebapp.pack(environment, base.resolve("webapps/corpus.war"));
      template = base;
    }
    return template;
  }

  /** Runs {@code start.jar} with {@code args} in {@code base} to completion, without the agent. */
  private void configure(Path base, Jdk jdk, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(jdk.java().toString(), "-jar", home.resolve("start.jar").toString()));
    command.addAll(List.of(args));
    Path log = base.resolve("logs/configure.out");
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(base.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("configuring " + base + " took over 60 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            command + " failed with " + process.exitValue() + ":\n" + Files.readString(log));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
