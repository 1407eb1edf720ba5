package io.levee.agent.cli;

/** The help text, whole or for one command. */
final class Usage {
  private static final String[][] COMMANDS = {
    {"list", "list", "JVMs this user can attach to, and whether Levee is in them"},
    {
      "attach",
      "attach PID [--rules FILE] [--http HOST:PORT] [--force]",
      "protect a running JVM (--force: even where a first attach slows it, before JDK 23)"
    },
    {"status", "status PID", "the resources in force in a JVM, with their state and counts"},
    {"reload", "reload PID [--rules FILE]", "re-read the rules file now, or switch to another"},
    {"detach", "detach PID", "remove Levee from a JVM, restoring the original bytecode"},
    {"validate", "validate FILE", "check a rules file and print each error with line and column"},
    {
      "explain",
      "explain FILE [--method M] PATH|URL|JDBC-URL [SQL]",
      "which resource a call would hit, and why the others miss it"
    },
    {"version", "--version", "the version of this agent"},
  };

  /** The syntax column's width: descriptions start two spaces in, then this far. */
  private static final int WIDTH = 46;

  private Usage() {}

  static String all() {
    StringBuilder s = new StringBuilder("usage: java -jar levee-agent.jar <command>\n\n");
    for (String[] c : COMMANDS) {
      // A syntax too long for its column gets its description on the next line, never run into it.
      s.append("  ").append(c[1]);
      s.append(c[1].length() < WIDTH ? pad(c[1].length()) : "\n" + pad(-2)).append(c[2]);
      s.append('\n');
    }
    return s.append('\n')
        .append(
            "Exit status: 0 success, 1 failure, 2 usage error. The commands that reach a JVM use\n")
        .append(
            "its attach mechanism: run them as the user that owns the JVM, with a JDK's java.\n")
        .append("As an agent: -javaagent:levee-agent.jar=rules=FILE[,http=HOST:PORT][,log=debug]")
        .toString();
  }

  /** The usage line of {@code command}, or the whole text for an unknown or missing command. */
  static String of(String command) {
    for (String[] c : COMMANDS) {
      if (c[0].equals(command)) {
        return "usage: java -jar levee-agent.jar " + c[1];
      }
    }
    return all();
  }

  /** The spaces from column {@code from} of a command's syntax to its description. */
  private static String pad(int from) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < WIDTH; i++) {
      b.append(' ');
    }
    return b.toString();
  }
}
