package io.levee.it.corpus.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.corpus.AgentStatus;
import io.levee.it.corpus.MethodResources;
import io.levee.it.corpus.MonitorDecisions;
import io.levee.it.corpus.Transparency;
import io.levee.it.corpus.Way;
import io.levee.it.support.Jdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The transparency corpus's servlet containers: Tomcat 9, 10.1 and 11 and Jetty 12 (ee8 and ee10),
 * each from its real distribution, started as an operator does, once each {@link Way}: without the
 * agent, with it and no rules, with monitor rules that match every page, and the same with a fault
 * forced in the agent's code. Every request of the fixed list must get the same answer each way,
 * the container must log the same complaints and exit the same way, and the agent's log must be
 * clean. The monitor run serves the agent's {@code /status}, read once the requests are answered,
 * for the calls its rules would have blocked.
 */
class ContainersCorpusIT {
  /**
   * The resources of the monitor rules that decide in every container: its pages, and the methods
   * of its own classes and of every servlet and filter.
   */
  private static final String[] DECIDING = {"every-page", "containers", "servlet-api"};

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void tomcat9Examples() {
    corpus(
        Tomcat.version("9.0."),
        TomcatExamples.REQUESTS,
        "javax.servlet.http.HttpServlet",
        "filters.ExampleFilter");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void tomcat10Examples() {
    corpus(
        Tomcat.version("10.1."),
        TomcatExamples.REQUESTS,
        "jakarta.servlet.http.HttpServlet",
        "filters.ExampleFilter");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void tomcat11Examples() {
    corpus(
        Tomcat.version("11.0."),
        TomcatExamples.REQUESTS,
        "jakarta.servlet.http.HttpServlet",
        "filters.ExampleFilter");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void jetty12Ee8() {
    corpus(
        Jetty.environment("ee8"),
        JettyCorpusWebapp.REQUESTS,
        "javax.servlet.http.HttpServlet",
        "corpus.webapp.ee8.StampFilter");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void jetty12Ee10() {
    corpus(
        Jetty.environment("ee10"),
        JettyCorpusWebapp.REQUESTS,
        "jakarta.servlet.http.HttpServlet",
        "corpus.webapp.ee10.StampFilter");
  }

  /**
   * On the newest JDK too, where Jetty's Jasper compiles the JSP against JDK 25's class files.
   * Jetty rather than Tomcat: it starts and compiles faster, and the class has a time budget.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void jetty12Ee10OnJdk25() {
    corpus(
        Jetty.environment("ee10"),
        Jdk.require(25),
        JettyCorpusWebapp.REQUESTS,
        "jakarta.servlet.http.HttpServlet",
        "corpus.webapp.ee10.StampFilter");
  }

  /** {@link #corpus(Distribution, Jdk, List, String...)} on the JDK running the tests (17). */
  private static void corpus(
      Distribution distribution, List<Exchange> requests, String... instrumented) {
    corpus(distribution, Jdk.current(), requests, instrumented);
  }

  /**
   * Runs {@code distribution} on {@code jdk} each {@link Way}, one after the other, sending {@code
   * requests}, and asserts the runs alike; the monitor run must show {@code instrumented} classes
   * (a servlet base class and a filter) and decisions on pages, or it would prove nothing.
   */
  private static void corpus(
      Distribution distribution, Jdk jdk, List<Exchange> requests, String... instrumented) {
    String subject = distribution.name() + "-jdk" + jdk.feature();
    Map<Way, Run> runs = new EnumMap<>(Way.class);
    Map<String, AgentStatus.Row> decided = new HashMap<>();
    for (Way way : Way.values()) {
      runs.put(way, run(distribution, jdk, way, subject, requests, decided));
    }
    // Alike is not enough: a container that answered nothing, or only errors, without the agent
    // too, would make every way look the same.
    assertThat(runs.get(Way.PLAIN).seen())
        .as("%s: the run without the agent answered every request, with no server error", subject)
        .allSatisfy(seen -> assertThat(seen.status()).as(seen.exchange()).isBetween(101, 499));
    Transparency.assertSame(subject, runs);
    // 128 + SIGTERM: the JVM ran its shutdown hooks (the container's orderly stop) and ended; a
    // crash or a hang that needed SIGKILL would show as another status.
    assertThat(runs.get(Way.PLAIN).exitStatus())
        .as("%s: exit status on SIGTERM", subject)
        .isEqualTo(143);
    String monitorLog = Way.MONITOR.agentLogText(subject);
    for (String type : instrumented) {
      assertThat(monitorLog)
          .as(
              "%s: the monitor run instrumented %s (%s)",
              subject, type, Way.MONITOR.agentLog(subject))
          .contains("instrumented " + type + "\n");
    }
    assertThat(Transparency.faultsTripped(subject))
        .as("%s: the forced faults tripped (%s)", subject, Way.FAULTS.agentLog(subject))
        .isTrue();
    assertThat(MonitorDecisions.missing(decided, DECIDING))
        .as(
            "%s: resources the monitor run would have blocked no call of, in its /status %s (%s)",
            subject, decided, Way.MONITOR.agentLog(subject))
        .isEmpty();
    MethodResources.assertWoven(subject, 1);
  }

  /**
   * Runs {@code distribution} one {@code way}; the monitor run puts its {@code /status}, read after
   * the requests, in {@code decided}.
   */
  private static Run run(
      Distribution distribution,
      Jdk jdk,
      Way way,
      String subject,
      List<Exchange> requests,
      Map<String, AgentStatus.Row> decided) {
    int statusPort = way == Way.MONITOR ? AgentStatus.freePort() : -1;
    List<String> agentOptions =
        way == Way.MONITOR ? List.of(AgentStatus.option(statusPort)) : List.of();
    Launched launched = distribution.launch(way, subject, jdk, agentOptions);
    try (ContainerProcess process = launched.process()) {
      List<Seen> seen = new Visitor(process.port(), launched.base()).visit(requests);
      if (way == Way.MONITOR) {
        decided.putAll(AgentStatus.read(statusPort));
      }
      int exit = process.stop();
      List<String> complaints = Complaints.in(process.output(), process.port(), launched.base());
      Run result = new Run(seen, complaints, exit);
      record(launched.base(), result);
      return result;
    }
  }

  /** Beside the run's base, what it saw, to read or diff when the ways disagree. */
  private static void record(Path base, Run run) {
    try {
      Files.writeString(base.resolveSibling(base.getFileName() + ".seen.txt"), run.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
