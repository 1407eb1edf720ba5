package io.levee.agent.cli;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import java.io.PrintStream;
import java.nio.file.Paths;

/**
 * {@code java -jar levee-agent.jar <command>} (SPEC §3). Exit status 0 on success, 1 on failure, 2 on
 * a usage error. Only {@code validate} works offline; the commands that talk to a running JVM come
 * with runtime attach.
 */
public final class Main {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private static final String USAGE_TEXT =
      "usage: java -jar levee-agent.jar <command>\n"
          + "\n"
          + "  validate FILE                                 check a rules file and print each error\n"
          + "  list                                          JVMs this user can attach to\n"
          + "  attach PID [--rules FILE] [--http HOST:PORT]  protect a running JVM\n"
          + "  status PID                                    the resources in force in a JVM\n"
          + "  reload PID [--rules FILE]                     re-read the rules file now\n"
          + "  detach PID                                    remove Levee from a JVM\n"
          + "\n"
          + "As an agent: -javaagent:levee-agent.jar=rules=FILE[,log=debug][,log-file=FILE]";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println(USAGE_TEXT);
      return USAGE;
    }
    String command = args[0];
    if ("--help".equals(command) || "-h".equals(command) || "help".equals(command)) {
      out.println(USAGE_TEXT);
      return OK;
    }
    if ("validate".equals(command)) {
      if (args.length != 2) {
        err.println("usage: java -jar levee-agent.jar validate FILE");
        return USAGE;
      }
      return validate(args[1], out);
    }
    if ("list".equals(command)
        || "attach".equals(command)
        || "status".equals(command)
        || "reload".equals(command)
        || "detach".equals(command)) {
      err.println("levee: '" + command + "' is not available in this version yet");
      return USAGE;
    }
    err.println("levee: unknown command '" + command + "'\n" + USAGE_TEXT);
    return USAGE;
  }

  private static int validate(String file, PrintStream out) {
    LoadResult result = RulesLoader.load(Paths.get(file));
    if (result.ok()) {
      out.println("OK: " + result.rules().resources.size() + " resources");
      return OK;
    }
    for (RuleError error : result.errors()) {
      out.println(error);
    }
    return FAILED;
  }
}
