package io.levee.agent.args;

/**
 * The agent arguments of a load that comes from the command line: {@code command=status}, {@code
 * reply=/tmp/levee-…/reply} and, for {@code reload}, {@code rules=FILE}, split from the agent
 * options proper ({@code rules}, {@code http}...). A load without {@code command} (a {@code
 * -javaagent}, or an attach by another tool) is a start.
 *
 * <p>Bootstrap-free: {@code LeveeAgent} (the entry) reads it before the bridge is in the boot
 * loader.
 */
public final class ControlArgs {
  public static final String ATTACH = "attach";
  public static final String STATUS = "status";
  public static final String RELOAD = "reload";
  public static final String DETACH = "detach";

  /** The system property the running agent sets, which {@code list} and the commands read. */
  public static final String STATE_PROPERTY = "levee.agent.state";

  /**
   * The version of the Levee classes this JVM loaded first, set by the first load of the agent
   * (dormant included) and never changed: the JVM keeps running those classes whatever jar is
   * attached later, so the command line compares it with its own.
   */
  public static final String VERSION_PROPERTY = "levee.agent.version";

  public static final String RUNNING = "running";
  public static final String DETACHED = "detached";

  /** Started with {@code enabled=false}: nothing done, waiting for an attach. */
  public static final String DORMANT = "dormant";

  private final String command;
  private final String reply;
  private final String rules;
  private final String options;

  private ControlArgs(String command, String reply, String rules, String options) {
    this.command = command;
    this.reply = reply;
    this.rules = rules;
    this.options = options;
  }

  public static ControlArgs parse(String args) {
    String command = null;
    String reply = null;
    String rules = null;
    StringBuilder options = new StringBuilder();
    if (args != null) {
      for (String pair : args.split(",")) {
        String key =
            pair.indexOf('=') < 0 ? pair.trim() : pair.substring(0, pair.indexOf('=')).trim();
        String value = pair.indexOf('=') < 0 ? "" : pair.substring(pair.indexOf('=') + 1).trim();
        if ("command".equals(key)) {
          command = value;
        } else if ("reply".equals(key)) {
          reply = value;
        } else {
          if ("rules".equals(key)) {
            rules = value;
          }
          options.append(options.length() == 0 ? "" : ",").append(pair);
        }
      }
    }
    return new ControlArgs(command == null ? ATTACH : command, reply, rules, options.toString());
  }

  /** {@code attach} (also for a plain start), {@code status}, {@code reload} or {@code detach}. */
  public String command() {
    return command;
  }

  /** Where the answer goes, or null (a start that nobody waits for). */
  public String reply() {
    return reply;
  }

  /** The {@code rules} argument, or null. */
  public String rules() {
    return rules;
  }

  /** The arguments left for {@link io.levee.agent.AgentOptions}. */
  public String options() {
    return options;
  }

  /** Every command but a start needs an agent already running in this JVM. */
  public boolean needsRunningAgent() {
    return !ATTACH.equals(command);
  }

  public boolean known() {
    return ATTACH.equals(command)
        || STATUS.equals(command)
        || RELOAD.equals(command)
        || DETACH.equals(command);
  }
}
