package io.levee.it.corpus;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How a program that runs to its end ended: exit status, stdout and stderr (the JVM's note about the
 * boot class path taken out of stderr, see {@link Transparency#withoutJvmNote}).
 */
public record Outcome(int exit, String stdout, String stderr) {

  /**
   * Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment (minus the
   * agent's own variables) and waits for it; its output goes to files named after {@code id} in the
   * corpus directory, so a failure can be read afterwards.
   */
  public static Outcome run(String id, List<String> command, Path dir, Map<String, String> env, Duration timeout) {
    Path out = Way.dir().resolve(id + ".stdout.log");
    Path err = Way.dir().resolve(id + ".stderr.log");
    ProcessBuilder builder = Processes.hermetic(new ProcessBuilder(command).directory(dir.toFile()));
    builder.environment().putAll(env);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    try {
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new IllegalStateException(id + " did not end within " + timeout + ": " + command + "\n" + Processes.read(err));
      }
      return new Outcome(process.exitValue(), Processes.read(out), Transparency.withoutJvmNote(Processes.read(err)));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

}
