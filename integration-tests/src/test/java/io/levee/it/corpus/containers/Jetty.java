package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import io.levee.it.support.Jdk;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
  public Launched launch(Way way, String subject, Jdk jdk, List<String> agentOptions) {
    Path base = Scratch.fresh(subject + "-" + way.name().toLowerCase());
    Scratch.copyTree(configured(subject, jdk), base);
    try {
      Files.createDirectories(base.resolve("tmp"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int port = Scratch.freePort();
    List<String> command =
        JvmProcess.java(jdk.home())
            .options(way.jvmOptions(subject, agentOptions))
            .options(Distribution.JVM_OPTIONS)
            // JSPs compile into the scratch base, so that every run compiles them afresh.
            .systemProperty("java.io.tmpdir", base.resolve("tmp").toString())
            .jar(home.resolve("start.jar"))
            .args("jetty.http.host=127.0.0.1", "jetty.http.port=" + port)
            .commandLine();
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
      CorpusWebapp.pack(environment, subject, base.resolve("webapps/corpus.war"));
      template = base;
    }
    return template;
  }

  /** Runs {@code start.jar} with {@code args} in {@code base} to completion, without the agent. */
  private void configure(Path base, Jdk jdk, String... args) {
    JvmCommand jvm =
        JvmProcess.java(jdk.home())
            .jar(home.resolve("start.jar"))
            .args(args)
            .directory(base)
            .output(base.resolve("logs/configure.out"));
    try {
      JvmProcess process = jvm.start();
      if (!process.waitFor(Duration.ofSeconds(60))) {
        process.kill();
        throw new IllegalStateException("configuring " + base + " took over 60 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            jvm.commandLine() + " failed with " + process.exitValue() + ":\n" + process.output());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
