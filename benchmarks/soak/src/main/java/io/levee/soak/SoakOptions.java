package io.levee.soak;

import java.nio.file.Path;

/** The soak's command line. */
record SoakOptions(
    Path agentJar,
    Path demoTarget,
    Path rulesA,
    Path rulesB,
    Path report,
    int minutes,
    double loadPercent,
    boolean dormant) {

  static final String USAGE =
      """
      usage: SoakDriver [--minutes N] [--load PERCENT] [--report FILE] [--agent JAR]
                        [--demo-target DIR] [--rules-a FILE] [--rules-b FILE]
                        [--start dormant|bare]

        --minutes N        minutes with an attach, a reload and a detach each (default 30)
        --load PERCENT     the constant load, in percent of the measured capacity (default 70)
        --report FILE      where the markdown report goes (default benchmarks/soak/target/soak-report.md)
        --agent JAR        the agent (default agent/target/levee-agent.jar)
        --demo-target DIR  where the demo module was built (default demo/target)
        --rules-a FILE     the rules attached each minute (default benchmarks/soak/rules-a.yaml)
        --rules-b FILE     the rules reloaded each minute (default benchmarks/soak/rules-b.yaml)
        --start dormant    start the application with the agent disabled
                           (-javaagent:JAR=enabled=false), which protects nothing but spares the
                           first attach the JVM's deoptimization of all compiled code on JDK 17-22
        --start bare       start it without any agent (the default on JDK 23 and later, which
                           no longer deoptimizes everything at the first attach)
      """;

  static SoakOptions parse(String[] args) {
    Path agentJar = Path.of("agent/target/levee-agent.jar");
    Path target = Path.of("demo/target");
    Path rulesA = Path.of("benchmarks/soak/rules-a.yaml");
    Path rulesB = Path.of("benchmarks/soak/rules-b.yaml");
    Path report = null;
    int minutes = 30;
    double load = 70;
    boolean dormant = Runtime.version().feature() < 23;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--minutes" -> minutes = Integer.parseInt(value(args, ++i));
        case "--load" -> load = Double.parseDouble(value(args, ++i));
        case "--report" -> report = Path.of(value(args, ++i));
        case "--agent" -> agentJar = Path.of(value(args, ++i));
        case "--demo-target" -> target = Path.of(value(args, ++i));
        case "--rules-a" -> rulesA = Path.of(value(args, ++i));
        case "--rules-b" -> rulesB = Path.of(value(args, ++i));
        case "--start" -> dormant = start(value(args, ++i));
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
      }
    }
    if (minutes < 1 || load <= 0) {
      throw new IllegalArgumentException(
          "--minutes must be 1 or more and --load above 0\n" + USAGE);
    }
    Path where = report != null ? report : SoakApp.OUT.resolve("soak-report.md");
    return new SoakOptions(
        agentJar.toAbsolutePath(),
        target,
        rulesA.toAbsolutePath(),
        rulesB.toAbsolutePath(),
        where,
        minutes,
        load,
        dormant);
  }

  /** The application's agent option at start, or null when it starts without one. */
  String startAgentArg() {
    return dormant ? "-javaagent:" + agentJar + "=enabled=false" : null;
  }

  private static boolean start(String how) {
    return switch (how) {
      case "dormant" -> true;
      case "bare" -> false;
      default -> throw new IllegalArgumentException("--start is dormant or bare\n" + USAGE);
    };
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
    }
    return args[i];
  }
}
