package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code method} resources of the corpus's monitor rules ({@link Way#MONITOR_RULES}): patterns
 * over the packages of the libraries the corpus runs, so that in each subject the agent weaves, by
 * rule, real code not written here, in quantity, and decides its calls. They name classes directly
 * (Maven and its resolver, the containers, Spring, the drivers, pools and ORMs, the HTTP clients,
 * what javac and Jasper compile while the subject runs), through an interface (every servlet and
 * filter, Spring Data's repositories and JPA's entity manager, whose implementations include JDK
 * proxies, MyBatis' executors) and through a class annotation (Spring's {@code @Repository} on
 * Spring Data's {@code SimpleJpaRepository}, {@code @RestController} on the Boot applications'
 * controller).
 *
 * <p>The agent weaves at most {@value #MAX_CLASSES} classes for method resources in a JVM: later
 * classes are left as they are with a warning, which the corpus counts as trouble. The patterns are
 * chosen so that every subject stays below half of that (Maven's own JVM, the largest, weaves under
 * a thousand), and {@link #assertWoven} checks each count against the bound.
 */
public final class MethodResources {
  /** The most classes the agent weaves for method resources in one JVM. */
  static final int MAX_CLASSES = 2000;

  static final String YAML =
      resource("maven", "class: [\"org.apache.maven.**\", \"org.eclipse.aether.**\"]")
          + resource(
              "containers",
              "class: [\"org.apache.catalina.**\", \"org.apache.coyote.**\","
                  + " \"org.eclipse.jetty.**\"]")
          + resource("jsp", "class: [\"org.apache.jasper.**\", \"org.apache.jsp.**\"]")
          + resource(
              "servlet-api",
              "class: [\"javax.servlet.Servlet\", \"jakarta.servlet.Servlet\","
                  + " \"javax.servlet.Filter\", \"jakarta.servlet.Filter\"]")
          + resource(
              "spring",
              "class: [\"org.springframework.web.**\", \"org.springframework.orm.**\","
                  + " \"org.springframework.transaction.**\", \"org.springframework.jdbc.**\"]")
          + resource(
              "spring-repositories", "class: \"org.springframework.data.repository.*Repository\"")
          + resource(
              "spring-stereotypes",
              "class: \"org.springframework.**\","
                  + " annotated: org.springframework.stereotype.Repository")
          + resource(
              "boot-controllers",
              "class: \"org.example.**\", methods: [\"*\"],"
                  + " annotated: org.springframework.web.bind.annotation.RestController")
          + resource(
              "entity-managers",
              "class: [\"javax.persistence.EntityManager\", \"jakarta.persistence.EntityManager\"]")
          + resource(
              "jdbc-drivers",
              "class: [\"org.postgresql.**\", \"org.mariadb.jdbc.**\", \"com.mysql.cj.**\","
                  + " \"org.hsqldb.jdbc.**\", \"org.apache.derby.client.**\", \"org.sqlite.**\","
                  + " \"org.h2.jdbc.**\"]")
          + resource(
              "jdbc-pools",
              "class: [\"com.zaxxer.hikari.**\", \"org.apache.commons.dbcp2.**\","
                  + " \"org.apache.commons.pool2.**\", \"com.mchange.v2.c3p0.**\","
                  + " \"org.apache.tomcat.jdbc.**\", \"com.alibaba.druid.pool.**\"]")
          + resource(
              "orms",
              "class: [\"org.apache.ibatis.session.**\", \"org.apache.ibatis.binding.**\","
                  + " \"org.hibernate.internal.**\", \"org.hibernate.engine.jdbc.**\"]")
          + resource("mybatis-executors", "class: \"org.apache.ibatis.executor.Executor\"")
          + resource(
              "http-clients",
              "class: [\"org.apache.http.**\", \"org.apache.hc.**\", \"okhttp3.**\"]")
          + resource("compiled", "class: \"corpus.**\"");

  /** {@code [levee] DEBUG instrumented a.B}: the weaver's line for each class it wove. */
  private static final String INSTRUMENTED = "[levee] DEBUG instrumented ";

  /** The line of the start-up that put the method resources in force. */
  private static final Pattern RETRANSFORMED =
      Pattern.compile(
          "(?m)^\\[levee\\] INFO method resources changed: retransformed \\d+ class(es)?(: |$)");

  private MethodResources() {}

  private static String resource(String name, String match) {
    return "  - name: " + name + "\n    match: { method: { " + match + " } }\n" + Way.LIMITS;
  }

  /**
   * The classes the agent wove in {@code subject}'s {@link Way#MONITOR} run but not in its {@link
   * Way#AGENT} run, which has no rules: those the method resources named (the integrations weave
   * the same classes whatever the rules). Sorted.
   */
  public static List<String> woven(String subject) {
    Set<String> integrations = instrumented(Way.AGENT.agentLogText(subject));
    Set<String> monitor = instrumented(Way.MONITOR.agentLogText(subject));
    monitor.removeAll(integrations);
    return List.copyOf(monitor);
  }

  private static Set<String> instrumented(String log) {
    return log.lines()
        .filter(l -> l.startsWith(INSTRUMENTED))
        .map(l -> l.substring(INSTRUMENTED.length()))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * {@code subject}'s monitor run put the method resources in force at start-up and wove at least
   * {@code atLeast} classes for them, among them each of {@code expected} (a regular expression,
   * for the JDK proxies' generated names); its faults run went through the woven methods' hook.
   * Prints the count, which the corpus's report quotes.
   */
  public static List<String> assertWoven(String subject, int atLeast, String... expected) {
    String log = Way.MONITOR.agentLogText(subject);
    assertThat(RETRANSFORMED.matcher(log).find())
        .as("%s: the start-up put the method resources in force (%s)", subject, logOf(subject))
        .isTrue();
    List<String> woven = woven(subject);
    System.out.printf("corpus %s: %d classes woven for method resources%n", subject, woven.size());
    assertThat(woven)
        .as("%s: the classes woven for method resources (%s)", subject, logOf(subject))
        .hasSizeBetween(atLeast, MAX_CLASSES - 1);
    for (String type : expected) {
      assertThat(woven)
          .as("%s: woven for a method resource (%s)", subject, logOf(subject))
          .anyMatch(w -> w.matches(type));
    }
    assertThat(Way.FAULTS.agentLogText(subject))
        .as(
            "%s: a woven method's hook ran in the faults run (%s)",
            subject, Way.FAULTS.agentLog(subject))
        .contains("fault injected at method-enter");
    return woven;
  }

  private static Object logOf(String subject) {
    return Way.MONITOR.agentLog(subject);
  }
}
