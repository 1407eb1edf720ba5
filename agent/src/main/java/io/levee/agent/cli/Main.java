package io.levee.agent.cli;

import io.levee.agent.args.ControlArgs;
import io.levee.agent.log.Version;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.match.Explain;
import io.levee.rules.model.RuleSet;
import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * {@code java -jar levee-agent.jar <command>} (SPEC §3). Exit status 0 on success, 1 on failure, 2
 * on a usage error. The commands that act on a JVM read its system properties first (where the
 * running agent publishes {@code levee.agent.state} and its command box), then give the agent the
 * command, through its box when it runs and by loading this jar otherwise; it answers through a
 * private file ({@link AgentLoader}).
 */
public final class Main {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private static final String STATE = "levee.agent.state";
  private static final String COMMANDS = "levee.agent.commands";

  private final PrintStream out;
  private final PrintStream err;

  private Main(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    Arguments a;
    try {
      a = Arguments.parse(args);
    } catch (Arguments.UsageError e) {
      err.println("levee: " + e.getMessage());
      err.println(Usage.of(e.command));
      return USAGE;
    }
    try {
      return new Main(out, err).execute(a);
    } catch (CliFailure e) {
      err.println("levee: " + e.getMessage());
      return FAILED;
    }
  }

  private int execute(Arguments a) throws CliFailure {
    if (Arguments.HELP.equals(a.command)) {
      out.println(Usage.all());
      return OK;
    }
    if (Arguments.VERSION.equals(a.command)) {
      out.println("Levee " + Version.current());
      return OK;
    }
    if (Arguments.VALIDATE.equals(a.command)) {
      return validate(a.file, out, true) ? OK : FAILED;
    }
    if (Arguments.EXPLAIN.equals(a.command)) {
      return explain(a);
    }
    if (Arguments.LIST.equals(a.command)) {
      return list();
    }
    String rules = a.rules == null ? null : absolute(a.rules);
    if (rules != null && !validate(rules, err, false)) {
      err.println("levee: " + rules + " is not valid: nothing sent to process " + a.pid);
      return FAILED;
    }
    String owner = TargetProcess.check(a.pid);
    Properties target = Jvms.open().properties(a.pid);
    String state = target.getProperty(STATE);
    boolean running = "running".equals(state);
    StringBuilder arguments = new StringBuilder("command=").append(a.command);
    boolean attach = Arguments.ATTACH.equals(a.command);
    if (attach) {
      append(arguments, "http", a.http);
      String loaded = target.getProperty(ControlArgs.VERSION_PROPERTY);
      if (loaded != null && !loaded.equals(Version.current())) {
        err.println(olderClasses(a.pid, loaded));
      }
      if (FirstAttach.deoptimizes(target, state)) {
        if (!a.force) {
          throw new CliFailure(FirstAttach.refusal(a.pid, target));
        }
        err.println(FirstAttach.forcing(a.pid));
      }
    } else if (!running) {
      throw new CliFailure(notRunning(a.pid, state));
    }
    append(arguments, "rules", rules);
    // A running agent takes commands through its box, so that nothing is loaded again.
    String box = running ? target.getProperty(COMMANDS) : null;
    AgentLoader.Answer answer =
        new AgentLoader(agentJar()).load(a.pid, arguments.toString(), owner, box);
    (answer.ok ? out : err).print(answer.text);
    if (answer.ok && attach && !running && FirstAttach.warnsOfDynamicAgents(target)) {
      err.println(FirstAttach.dynamicAgentNote());
    }
    return answer.ok ? OK : FAILED;
  }

  /** Said before an attach into a JVM whose Levee classes are of another version than this jar. */
  static String olderClasses(String pid, String loaded) {
    return "levee: note: process "
        + pid
        + " loaded Levee "
        + loaded
        + " before and keeps running it: attach does not upgrade, this jar ("
        + Version.current()
        + ") only brings the rules. Restart the JVM with the new jar to upgrade.";
  }

  private int list() throws CliFailure {
    Jvms jvms = Jvms.open();
    String self = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
    out.println(String.format("%-8s %-9s %s", "PID", "LEVEE", "MAIN CLASS"));
    for (String[] jvm : jvms.list()) {
      if (jvm[0].equals(self)) {
        continue;
      }
      String levee;
      try {
        String state = jvms.properties(jvm[0]).getProperty(STATE);
        levee = state == null ? "no" : state;
      } catch (CliFailure e) {
        levee = "unknown";
      }
      String main = jvm[1].trim().isEmpty() ? "?" : jvm[1].trim().split("\\s+")[0];
      out.println(String.format("%-8s %-9s %s", jvm[0], levee, main));
    }
    return OK;
  }

  /**
   * Prints each error of {@code file} to {@code to}, and with {@code sayOk} a line when there is
   * none.
   */
  static boolean validate(String file, PrintStream to, boolean sayOk) {
    LoadResult result = RulesLoader.load(Paths.get(file));
    if (!result.ok()) {
      for (RuleError error : result.errors()) {
        to.println(error);
      }
      return false;
    }
    if (sayOk) {
      to.println("OK: " + result.rules().describe());
    }
    return true;
  }

  /**
   * Which resource of the rules file a call would hit, or why none: 0 when one does, 1 when none
   * does or the file is invalid (its errors printed).
   */
  private int explain(Arguments a) {
    LoadResult result = RulesLoader.load(Paths.get(a.file));
    if (!result.ok()) {
      for (RuleError error : result.errors()) {
        err.println(error);
      }
      return FAILED;
    }
    RuleSet rules = result.rules();
    Explain.Result answer;
    if (a.target.startsWith("jdbc:")) {
      answer = Explain.jdbc(rules, a.target, a.sql);
    } else if (a.target.startsWith("/")) {
      answer = Explain.servlet(rules, a.method, a.target);
    } else {
      answer = Explain.http(rules, a.method, a.target);
    }
    for (String line : answer.lines) {
      out.println(line);
    }
    return answer.matched ? OK : FAILED;
  }

  static String notRunning(String pid, String state) {
    String again = "java -jar levee-agent.jar attach " + pid + " --rules FILE";
    return "detached".equals(state)
        ? "Levee was detached from process " + pid + "; attach it again with: " + again
        : "Levee is not running in process " + pid + "; attach it first with: " + again;
  }

  private static String absolute(String file) throws CliFailure {
    if (file.indexOf(',') >= 0) {
      throw new CliFailure("the rules file's path must not contain ',' (" + file + ")");
    }
    return Paths.get(file).toAbsolutePath().normalize().toString();
  }

  private static void append(StringBuilder arguments, String name, String value) {
    if (value != null) {
      arguments.append(',').append(name).append('=').append(value);
    }
  }

  /** This jar: the agent the commands load. */
  private static File agentJar() throws CliFailure {
    try {
      File jar = new File(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (jar.isFile()) {
        return jar;
      }
    } catch (URISyntaxException | RuntimeException e) {
      // Reported below.
    }
    throw new CliFailure(
        "run the command line from levee-agent.jar: java -jar levee-agent.jar ...");
  }
}
