package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the corpus asserts of every piece of software it runs: the same observable behaviour in each
 * {@link Way}, and nothing in the agent's log that says the agent got in the way.
 */
public final class Transparency {
  /**
   * The one line the JVM itself prints to stderr when an agent appends to the boot class path with
   * class data sharing on. It is the JVM's, documented in the README, and the only difference the
   * corpus forgives.
   */
  private static final String JVM_NOTE =
      "OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes because"
          + " bootstrap classpath has been appended";

  /** Lines of the agent's log that mean it failed on a class or the class failed because of it. */
  private static final Pattern TROUBLE =
      Pattern.compile(
          "could not instrument|could not retransform|could not describe|VerifyError"
              + "|ClassCircularityError|LinkageError|NoClassDefFoundError|ClassFormatError"
              + "|\\] (WARN|ERROR) ");

  /**
   * In {@link Way#FAULTS}: the warnings that say the faults were forced and tripped, and no other.
   */
  private static final Pattern FORCED =
      Pattern.compile(
          "\\] WARN (levee\\.inject-faults=all: fault mode"
              + "|internal error, the call went through unprotected.*fault injected at )");

  private Transparency() {}

  /** {@code text} without the JVM's note about the boot class path. */
  public static String withoutJvmNote(String text) {
    return text.lines().filter(l -> !l.equals(JVM_NOTE)).collect(Collectors.joining("\n"));
  }

  /**
   * The agent's log for {@code subject} run {@code way} holds no trouble (in {@link Way#FAULTS},
   * but the forced faults); with the agent in, it also shows the agent started, so that a run
   * without the agent cannot pass for one with it. That faults did trip is the subject's to check
   * ({@link #faultsTripped}): a program may run no woven code at all.
   */
  public static void assertAgentQuiet(Way way, String subject) {
    String log = way.agentLogText(subject);
    if (way == Way.PLAIN) {
      return;
    }
    assertThat(log)
        .as("%s %s: agent log %s", subject, way, way.agentLog(subject))
        .contains("[levee] INFO started");
    List<String> trouble =
        trouble(log).stream()
            .filter(l -> way != Way.FAULTS || !FORCED.matcher(l).find())
            .collect(Collectors.toList());
    assertThat(trouble).as("%s %s: trouble in %s", subject, way, way.agentLog(subject)).isEmpty();
  }

  /** The lines of an agent's log that say it failed on a class or a class failed because of it. */
  public static List<String> trouble(String agentLog) {
    return agentLog.lines().filter(l -> TROUBLE.matcher(l).find()).collect(Collectors.toList());
  }

  /**
   * Whether a forced fault tripped in the agent's code while {@code subject} ran {@link
   * Way#FAULTS}.
   */
  public static boolean faultsTripped(String subject) {
    return Way.FAULTS.agentLogText(subject).contains("fault injected at ");
  }

  /**
   * Every way saw what the run without the agent saw; {@code seen} has one entry per way. The
   * agent's logs are checked too.
   */
  public static <T> void assertSame(String subject, Map<Way, T> seen) {
    assertThat(seen.keySet())
        .as(subject + ": the ways run")
        .containsExactlyInAnyOrder(Way.values());
    T plain = seen.get(Way.PLAIN);
    for (Way way : Way.values()) {
      assertAgentQuiet(way, subject);
      assertThat(seen.get(way)).as("%s %s, against %s", subject, way, Way.PLAIN).isEqualTo(plain);
    }
  }
}
