package io.levee.agent.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Checks on the target process that give a clear message before the attach mechanism gives a
 * cryptic one: that it exists, and that it belongs to this user (the attach mechanism lets only the
 * JVM's own user, or root, in). Where {@code /proc} does not exist (not Linux) the attach mechanism
 * has the last word.
 */
final class TargetProcess {
  private TargetProcess() {}

  /**
   * The owner of {@code pid}, or null where it cannot be known; fails if there is no such process.
   */
  static String check(String pid) throws CliFailure {
    Path proc = Paths.get("/proc");
    if (!Files.isDirectory(proc)) {
      return null;
    }
    Path process = proc.resolve(pid);
    if (!Files.exists(process)) {
      throw new CliFailure(noSuchProcess(pid));
    }
    String owner;
    try {
      owner = Files.getOwner(process).getName();
    } catch (IOException e) {
      return null;
    }
    String problem = ownerProblem(pid, owner, System.getProperty("user.name"));
    if (problem != null) {
      throw new CliFailure(problem);
    }
    return owner;
  }

  static String noSuchProcess(String pid) {
    return "no process with pid "
        + pid
        + " (`java -jar levee-agent.jar list` shows the JVMs you can attach to)";
  }

  /**
   * Null when {@code user} may attach to a process of {@code owner}; otherwise why not and what to
   * do.
   */
  static String ownerProblem(String pid, String owner, String user) {
    if (owner == null || owner.equals(user) || "root".equals(user)) {
      return null;
    }
    return "process "
        + pid
        + " belongs to user "
        + owner
        + ", but this command runs as "
        + user
        + "; a JVM lets only its own user attach: run the command as "
        + owner
        + " (for example: sudo -u "
        + owner
        + " java -jar levee-agent.jar ...)";
  }
}
