package io.levee.it.lifecycle;

import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code java -jar levee-agent.jar ...} as a user runs it, in its own JVM of the given JDK. */
public final class Cli {
  private Cli() {}

  public record Result(int exit, String out, String err, long millis) {
    @Override
    public String toString() {
      return "exit " + exit + " after " + millis + " ms\n--- out\n" + out + "--- err\n" + err;
    }
  }

  public static Result run(Jdk jdk, String... args) {
    return run(jdk, Map.of(), args);
  }

  /** With {@code env} added to the environment, as where a variable reaches every JVM. */
  public static Result run(Jdk jdk, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>(List.of(jdk.java().toString(), "-jar"));
    command.add(TestPaths.agentJar().toString());
    command.addAll(List.of(args));
    return exec(command, env);
  }

  /** Any command line that runs the agent's commands: a shell's, say, as a manual shows it. */
  public static Result exec(List<String> command, Map<String, String> env) {
    long start = System.nanoTime();
    try {
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(env);
      Process p = builder.start();
      p.getOutputStream().close();
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(p, false));
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> read(p, true));
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(command + " did not finish within 60 s");
      }
      return new Result(
          p.exitValue(),
          new String(out.join(), StandardCharsets.UTF_8),
          new String(err.join(), StandardCharsets.UTF_8),
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static byte[] read(Process p, boolean err) {
    try {
      return (err ? p.getErrorStream() : p.getInputStream()).readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
