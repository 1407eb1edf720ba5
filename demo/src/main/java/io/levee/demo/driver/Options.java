package io.levee.demo.driver;

import java.nio.file.Path;

/** The driver's command line. */
record Options(
    Path agentJar,
    Path rules,
    Path demoTarget,
    boolean agent,
    boolean attach,
    boolean plain,
    double timeScale) {

  static final String USAGE =
      """
      usage: DemoDriver [--agent JAR] [--rules FILE] [--demo-target DIR] [--no-agent] [--attach]
                        [--plain] [--time-scale F]

        --agent JAR        the agent (default agent/target/levee-agent.jar)
        --rules FILE       the rules file (default demo/rules.yaml)
        --demo-target DIR  where the demo module was built (default demo/target)
        --no-agent         run the application unprotected, to compare
        --attach           start the application without the agent, then attach it at run time
        --plain            never redraw the table in place (for logs; automatic without a terminal)
        --time-scale F     stretch (F > 1) or shorten (F < 1) every scenario
      """;

  static Options parse(String[] args) {
    Path agentJar = Path.of("agent/target/levee-agent.jar");
    Path rules = Path.of("demo/rules.yaml");
    Path target = Path.of("demo/target");
    boolean agent = true;
    boolean attach = false;
    boolean plain = System.console() == null;
    double scale = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--agent" -> agentJar = Path.of(value(args, ++i));
        case "--rules" -> rules = Path.of(value(args, ++i));
        case "--demo-target" -> target = Path.of(value(args, ++i));
        case "--no-agent" -> agent = false;
        case "--attach" -> attach = true;
        case "--plain" -> plain = true;
        case "--time-scale" -> scale = Double.parseDouble(value(args, ++i));
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
      }
    }
    return new Options(agentJar, rules, target, agent, attach, plain, scale);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
    }
    return args[i];
  }
}
