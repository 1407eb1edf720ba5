package io.levee.agent.cli;

/**
 * The command line of SPEC §3, parsed and checked before anything touches another process: the
 * command, the pid (digits only), and the options that command takes ({@code --rules FILE} or
 * {@code --rules=FILE}, {@code --http HOST:PORT}, attach's {@code --force}), each at most once.
 */
final class Arguments {
  static final String HELP = "help";
  static final String VERSION = "version";
  static final String LIST = "list";
  static final String ATTACH = "attach";
  static final String STATUS = "status";
  static final String RELOAD = "reload";
  static final String DETACH = "detach";
  static final String VALIDATE = "validate";
  static final String EXPLAIN = "explain";

  final String command;
  final String pid;
  final String file;
  final String rules;
  final String http;

  /** explain: the call's method (servlet, http), its path, URL or JDBC URL, and its SQL. */
  final String method;

  final String target;
  final String sql;

  /** attach: {@code --force}, load the agent even where the JVM pays a first attach. */
  final boolean force;

  private Arguments(String command, String pid, String file, String rules, String http) {
    this(command, pid, file, rules, http, null, null, null, false);
  }

  private Arguments(
      String command,
      String pid,
      String file,
      String rules,
      String http,
      String method,
      String target,
      String sql,
      boolean force) {
    this.command = command;
    this.pid = pid;
    this.file = file;
    this.rules = rules;
    this.http = http;
    this.method = method;
    this.target = target;
    this.sql = sql;
    this.force = force;
  }

  /** A usage error: the message says what is wrong, {@link Usage#of} what is right. */
  static final class UsageError extends Exception {
    final String command;

    UsageError(String command, String message) {
      super(message);
      this.command = command;
    }
  }

  static Arguments parse(String[] args) throws UsageError {
    if (args.length == 0) {
      throw new UsageError(null, "no command given");
    }
    String command = args[0];
    for (String arg : args) {
      if ("--help".equals(arg) || "-h".equals(arg)) {
        return new Arguments(HELP, null, null, null, null);
      }
    }
    if (HELP.equals(command)) {
      return new Arguments(HELP, null, null, null, null);
    }
    if ("--version".equals(command) || VERSION.equals(command)) {
      expectCount(command, args, 1, "takes no arguments");
      return new Arguments(VERSION, null, null, null, null);
    }
    if (LIST.equals(command)) {
      expectCount(command, args, 1, "takes no arguments");
      return new Arguments(command, null, null, null, null);
    }
    if (VALIDATE.equals(command)) {
      expectCount(command, args, 2, "needs exactly one FILE");
      return new Arguments(command, null, args[1], null, null);
    }
    if (EXPLAIN.equals(command)) {
      return explain(args);
    }
    if (ATTACH.equals(command)
        || STATUS.equals(command)
        || RELOAD.equals(command)
        || DETACH.equals(command)) {
      return withPid(command, args);
    }
    throw new UsageError(null, "unknown command '" + command + "'");
  }

  /** {@code explain FILE [--method M] (PATH | URL | JDBC-URL [SQL])}. */
  private static Arguments explain(String[] args) throws UsageError {
    java.util.List<String> words = new java.util.ArrayList<String>();
    String method = null;
    for (int i = 1; i < args.length; i++) {
      if ("--method".equals(args[i]) || args[i].startsWith("--method=")) {
        String value =
            args[i].contains("=")
                ? args[i].substring(args[i].indexOf('=') + 1)
                : i + 1 < args.length ? args[++i] : null;
        method = once(EXPLAIN, "--method", method, value, "METHOD like GET");
      } else if (args[i].startsWith("--")) {
        throw new UsageError(EXPLAIN, "unknown option '" + args[i] + "' for explain");
      } else {
        words.add(args[i]);
      }
    }
    if (words.size() < 2) {
      throw new UsageError(
          EXPLAIN, "explain needs a rules FILE and a call: a PATH, URL or JDBC-URL");
    }
    String target = words.get(1);
    boolean jdbc = target.startsWith("jdbc:");
    if (words.size() > (jdbc ? 3 : 2)) {
      throw new UsageError(
          EXPLAIN,
          jdbc
              ? "explain takes one SQL statement after the JDBC URL: quote it"
              : "explain takes one PATH or URL (SQL follows a JDBC URL only)");
    }
    if (!jdbc && !target.startsWith("/") && !target.matches("(?i)https?://.+")) {
      throw new UsageError(
          EXPLAIN,
          "'"
              + target
              + "' is no call: a servlet PATH starts with /, a URL with http:// or https://, a"
              + " JDBC URL with jdbc:");
    }
    return new Arguments(
        EXPLAIN,
        null,
        words.get(0),
        null,
        null,
        method == null ? "GET" : method.toUpperCase(java.util.Locale.ROOT),
        target,
        words.size() > 2 ? words.get(2) : null,
        false);
  }

  private static Arguments withPid(String command, String[] args) throws UsageError {
    if (args.length < 2 || args[1].startsWith("-")) {
      throw new UsageError(command, command + " needs the PID of a JVM (see: list)");
    }
    String pid = args[1];
    if (!pid.matches("[0-9]{1,10}")) {
      throw new UsageError(command, "'" + pid + "' is not a process id (digits only)");
    }
    boolean takesRules = ATTACH.equals(command) || RELOAD.equals(command);
    boolean takesHttp = ATTACH.equals(command);
    String rules = null;
    String http = null;
    boolean force = false;
    for (int i = 2; i < args.length; i++) {
      String arg = args[i];
      if ("--force".equals(arg) && ATTACH.equals(command)) {
        force = true;
        continue;
      }
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      String value;
      if (arg.contains("=")) {
        value = arg.substring(arg.indexOf('=') + 1);
      } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
        value = args[++i];
      } else {
        value = null;
      }
      if ("--rules".equals(name) && takesRules) {
        rules = once(command, name, rules, value, "FILE");
      } else if ("--http".equals(name) && takesHttp) {
        http = once(command, name, http, value, "HOST:PORT");
        checkHostPort(command, http);
      } else {
        throw new UsageError(command, "unknown option '" + arg + "' for " + command);
      }
    }
    return new Arguments(command, pid, null, rules, http, null, null, null, force);
  }

  private static String once(String command, String name, String old, String value, String what)
      throws UsageError {
    if (value == null || value.isEmpty()) {
      throw new UsageError(command, name + " needs a " + what);
    }
    if (old != null) {
      throw new UsageError(command, name + " given twice");
    }
    return value;
  }

  private static void checkHostPort(String command, String http) throws UsageError {
    int colon = http.lastIndexOf(':');
    String port = colon < 0 ? "" : http.substring(colon + 1);
    if (colon <= 0
        || !port.matches("[0-9]{1,5}")
        || Integer.parseInt(port) < 1
        || Integer.parseInt(port) > 65535) {
      throw new UsageError(
          command, "--http needs HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:9464");
    }
  }

  private static void expectCount(String command, String[] args, int count, String what)
      throws UsageError {
    if (args.length != count) {
      throw new UsageError(command, command + " " + what);
    }
  }
}
