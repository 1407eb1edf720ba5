package io.levee.it.corpus.containers;

import io.levee.it.corpus.Processes;
import io.levee.it.support.ForkedApp;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A servlet container started from its distribution in a JVM of its own, the way an operator starts
 * it (a launcher script or {@code start.jar}), with its output in a file. It is ready once a page
 * of its deployed application answers, and {@link #stop()} ends it as an operator does, with
 * SIGTERM, so that its shutdown hooks run. The deployment recipes ({@code io.levee.it.deploy})
 * start their applications the same way.
 */
public final class ContainerProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final String name;
  private final JvmProcess process;
  private final Path output;
  private final int port;

  private ContainerProcess(String name, JvmProcess process, Path output, int port) {
    this.name = name;
    this.process = process;
    this.output = output;
    this.port = port;
  }

  /**
   * Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment, stdout
   * and stderr together in {@code output}, and waits until {@code readyPath} on {@code port}
   * answers. A failed or interrupted test run kills it, so that it holds no port.
   */
  public static ContainerProcess start(
      String name,
      List<String> command,
      Map<String, String> env,
      Path dir,
      Path output,
      int port,
      String readyPath) {
    return start(name, command, Processes.NOT_HERMETIC, env, dir, output, port, readyPath);
  }

  /**
   * As above, leaving out of this JVM's environment the variables {@code leftOut} accepts (every
   * one, for a process that gets only {@code env}, as a service manager starts it).
   */
  public static ContainerProcess start(
      String name,
      List<String> command,
      Predicate<String> leftOut,
      Map<String, String> env,
      Path dir,
      Path output,
      int port,
      String readyPath) {
    JvmProcess process;
    try {
      process =
          JvmProcess.command(command)
              .directory(dir)
              .withoutEnv(leftOut)
              .env(env)
              .output(output)
              .killOnExit()
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
    ContainerProcess container = new ContainerProcess(name, process, output, port);
    container.awaitReady(readyPath);
    return container;
  }

  int port() {
    return port;
  }

  /** The process the command started: the JVM itself, unless a script waits for it. */
  public long pid() {
    return process.pid();
  }

  /** Everything the container printed so far. */
  public String output() {
    return process.output();
  }

  /** Stops the container with SIGTERM and returns its exit status. */
  public int stop() {
    return Processes.stop(process, STOP_TIMEOUT, name);
  }

  /** Waits for the container to end by itself (told to stop some other way); its exit status. */
  public int awaitExit() {
    try {
      if (!process.waitFor(STOP_TIMEOUT)) {
        throw failure("did not end within " + STOP_TIMEOUT.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    process.kill();
  }

  private void awaitReady(String path) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw failure("exited with status " + process.exitValue() + " before it was ready");
      }
      try {
        if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      ForkedApp.sleep(100);
    }
    close();
    throw failure("did not answer " + path + " within " + START_TIMEOUT.toSeconds() + " s");
  }

  private IllegalStateException failure(String what) {
    String out = output();
    String tail = out.length() <= 6000 ? out : "..." + out.substring(out.length() - 6000);
    return new IllegalStateException(String.format("%s %s%n--- %s%n%s", name, what, output, tail));
  }
}
