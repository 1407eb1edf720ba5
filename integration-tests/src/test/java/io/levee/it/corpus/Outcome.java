package io.levee.it.corpus;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a program that runs to its end ended: exit status, stdout and stderr (the JVM's note about
 * the boot class path taken out of stderr, see {@link Transparency#withoutJvmNote}).
 */
public record Outcome(int exit, String stdout, String stderr) {

  /**
   * Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment (minus the
   * agent's own variables) and waits for it; its output goes to files named after {@code id} in the
   * corpus directory, so a failure can be read afterwards.
   */
  public static Outcome run(
      String id, List<String> command, Path dir, Map<String, String> env, Duration timeout) {
    return run(id, JvmProcess.command(command), dir, env, timeout);
  }

  /** {@link #run(String, List, Path, Map, Duration)} of a JVM's command line. */
  public static Outcome run(
      String id, JvmCommand jvm, Path dir, Map<String, String> env, Duration timeout) {
    Path out = Way.dir().resolve(id + ".stdout.log");
    Path err = Way.dir().resolve(id + ".stderr.log");
    jvm.directory(dir).withoutEnv(Processes.NOT_HERMETIC).env(env).noInput().output(out, err);
    JvmProcess process = null;
    try {
      process = jvm.start();
      if (!process.waitFor(timeout)) {
        process.kill();
        process.waitFor(Duration.ofSeconds(10));
        throw new IllegalStateException(
            id
                + " did not end within "
                + timeout
                + ": "
                + jvm.commandLine()
                + "\n"
                + process.errors());
      }
      return new Outcome(
          process.exitValue(), process.output(), Transparency.withoutJvmNote(process.errors()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + jvm.commandLine(), e);
    } catch (InterruptedException e) {
      // A test that gives up (its timeout, a run beside it that failed) leaves nothing running.
      if (process != null) {
        process.kill();
      }
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
