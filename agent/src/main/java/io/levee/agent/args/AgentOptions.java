package io.levee.agent.args;

import io.levee.agent.log.AgentLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The agent options of SPEC §1, each taken from the first source that sets it: agent arguments
 * ({@code rules=/etc/levee.yaml,log=debug}), then system properties ({@code -Dlevee.rules=...}),
 * then environment variables ({@code LEVEE_RULES=...}).
 *
 * <p>A bad option never stops the application: it is reported in {@link #problems()}, and the
 * option falls back to its default, except {@code enabled}, where an unreadable value means "off"
 * because the agent cannot know the user meant to protect anything.
 */
public final class AgentOptions {
  static final String[] NAMES = {"rules", "enabled", "http", "log", "log-file"};

  private final String rules;
  private final boolean enabled;
  private final String http;
  private final AgentLog.Level logLevel;
  private final String logFile;
  private final List<String> problems;

  private AgentOptions(
      String rules,
      boolean enabled,
      String http,
      AgentLog.Level logLevel,
      String logFile,
      List<String> problems) {
    this.rules = rules;
    this.enabled = enabled;
    this.http = http;
    this.logLevel = logLevel;
    this.logFile = logFile;
    this.problems = Collections.unmodifiableList(problems);
  }

  public static AgentOptions resolve(String agentArgs, Properties props, Map<String, String> env) {
    List<String> problems = new ArrayList<String>();
    String[] args = parseArgs(agentArgs, problems);
    String rules = value(0, args, props, env);
    String enabledText = value(1, args, props, env);
    boolean enabled = true;
    if (enabledText != null && !"true".equalsIgnoreCase(enabledText.trim())) {
      enabled = false;
      if (!"false".equalsIgnoreCase(enabledText.trim())) {
        problems.add("option enabled=" + enabledText + " is neither true nor false: staying off");
      }
    }
    String http = value(2, args, props, env);
    String levelText = value(3, args, props, env);
    AgentLog.Level level = AgentLog.Level.INFO;
    if (levelText != null) {
      level = AgentLog.Level.parse(levelText.trim());
      if (level == null) {
        problems.add("option log=" + levelText + " is not error, warn, info or debug: using info");
        level = AgentLog.Level.INFO;
      }
    }
    String logFile = value(4, args, props, env);
    return new AgentOptions(rules, enabled, http, level, logFile, problems);
  }

  /** The rules file, or null when none was given. */
  public String rules() {
    return rules;
  }

  public boolean enabled() {
    return enabled;
  }

  /** {@code host:port} of the local endpoint, or null (off). */
  public String http() {
    return http;
  }

  public AgentLog.Level logLevel() {
    return logLevel;
  }

  /** Where the log goes instead of stderr, or null. */
  public String logFile() {
    return logFile;
  }

  /** One message per option that could not be used as given. */
  public List<String> problems() {
    return problems;
  }

  private static String value(
      int option, String[] args, Properties props, Map<String, String> env) {
    if (args[option] != null) {
      return args[option];
    }
    String name = NAMES[option];
    String prop = props.getProperty("levee." + name);
    if (prop != null) {
      return prop;
    }
    return env.get("LEVEE_" + name.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  private static String[] parseArgs(String agentArgs, List<String> problems) {
    String[] values = new String[NAMES.length];
    if (agentArgs == null || agentArgs.trim().isEmpty()) {
      return values;
    }
    for (String pair : agentArgs.split(",")) {
      if (pair.trim().isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = (eq < 0 ? pair : pair.substring(0, eq)).trim();
      int option = indexOf(key);
      if (eq < 0 || option < 0) {
        problems.add(
            "ignoring agent argument '"
                + pair.trim()
                + "': expected NAME=VALUE with NAME one of "
                + "rules, enabled, http, log, log-file");
        continue;
      }
      values[option] = pair.substring(eq + 1).trim();
    }
    return values;
  }

  private static int indexOf(String key) {
    for (int i = 0; i < NAMES.length; i++) {
      if (NAMES[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }
}
