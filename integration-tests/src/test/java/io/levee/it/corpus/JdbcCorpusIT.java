package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.corpus.jdbc.Access;
import io.levee.it.apps.corpus.jdbc.Combination;
import io.levee.it.apps.corpus.jdbc.JdbcCorpusApp;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JDBC in the transparency corpus: real drivers (PostgreSQL, MariaDB, MySQL Connector/J, HSQLDB,
 * Derby's client, SQLite), pools (HikariCP, DBCP2, c3p0, Tomcat JDBC, Druid) and ORMs (MyBatis,
 * Hibernate) running one fixed script per combination ({@link JdbcCorpusApp}). One JVM per way runs
 * every combination; the ways must print the same. One more run, with enforcing rules that admit
 * one SELECT on each combination's guard table ({@link GuardRules}), shows one decision per
 * statement through every pool and ORM, the block as SQLState 53000 at the root of whatever the
 * pool or ORM throws, and the pool healthy afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcCorpusIT {
  private static final String SUBJECT = "jdbc";
  private static final String ENFORCE = SUBJECT + "-enforce";
  private static final String INSTRUMENTED = "[levee] DEBUG instrumented ";

  /**
   * Classes the agent must have woven in the monitor run, per driver and pool: where each
   * implements statement execution and connection acquisition (for a pool whose connections and
   * statements are JDK proxies, Tomcat JDBC's, only the latter), so that the comparison is not
   * between runs where the agent stayed out of the way by doing nothing.
   */
  private static final Map<String, List<String>> WOVEN =
      Map.ofEntries(
          Map.entry(
              "postgresql",
              List.of("org.postgresql.jdbc.PgStatement", "org.postgresql.jdbc.PgConnection")),
          Map.entry(
              "mariadb", List.of("org.mariadb.jdbc.Statement", "org.mariadb.jdbc.Connection")),
          Map.entry(
              "mariadb-cj",
              List.of("com.mysql.cj.jdbc.StatementImpl", "com.mysql.cj.jdbc.ConnectionImpl")),
          Map.entry(
              "hsqldb", List.of("org.hsqldb.jdbc.JDBCStatement", "org.hsqldb.jdbc.JDBCConnection")),
          Map.entry(
              "derby",
              List.of(
                  "org.apache.derby.client.am.ClientStatement",
                  "org.apache.derby.client.am.ClientConnection")),
          // JDBC3Statement implements execute*, but only its subclass JDBC4Statement says it is a
          // java.sql.Statement: the agent weaves it for that subclass.
          Map.entry(
              "sqlite",
              List.of("org.sqlite.jdbc3.JDBC3Statement", "org.sqlite.jdbc3.JDBC3Connection")),
          Map.entry(
              "hikari",
              List.of(
                  "com.zaxxer.hikari.pool.ProxyStatement", "com.zaxxer.hikari.HikariDataSource")),
          Map.entry(
              "dbcp2",
              List.of(
                  "org.apache.commons.dbcp2.DelegatingStatement",
                  "org.apache.commons.dbcp2.BasicDataSource")),
          Map.entry(
              "c3p0",
              List.of(
                  "com.mchange.v2.c3p0.impl.NewProxyStatement",
                  "com.mchange.v2.c3p0.impl.AbstractPoolBackedDataSource")),
          // getConnection is DataSourceProxy's, which only its subclass DataSource says is a
          // javax.sql.DataSource: the agent weaves it for that subclass.
          Map.entry("tomcat-jdbc", List.of("org.apache.tomcat.jdbc.pool.DataSourceProxy")),
          Map.entry(
              "druid",
              List.of(
                  "com.alibaba.druid.pool.DruidPooledStatement",
                  "com.alibaba.druid.pool.DruidDataSource")));

  /**
   * Classes the monitor run must have woven for the method resources ({@link MethodResources}), per
   * driver, pool and ORM: a driver's and a pool's own machinery (not their JDBC interfaces, which
   * the {@code jdbc} integration weaves anyway), MyBatis' session and, through the {@code Executor}
   * interface, its executors, Hibernate's session, also through JPA's {@code EntityManager}.
   */
  private static final Map<String, List<String>> METHOD_WOVEN =
      Map.ofEntries(
          Map.entry("postgresql", List.of("org\\.postgresql\\.core\\.v3\\.QueryExecutorImpl")),
          Map.entry("mariadb", List.of("org\\.mariadb\\.jdbc\\.client\\..*")),
          Map.entry("mariadb-cj", List.of("com\\.mysql\\.cj\\.NativeSession")),
          Map.entry("hsqldb", List.of("org\\.hsqldb\\.jdbc\\..*")),
          Map.entry("derby", List.of("org\\.apache\\.derby\\.client\\.net\\..*")),
          Map.entry("sqlite", List.of("org\\.sqlite\\.core\\.NativeDB")),
          Map.entry("hikari", List.of("com\\.zaxxer\\.hikari\\.pool\\.HikariPool")),
          Map.entry("dbcp2", List.of("org\\.apache\\.commons\\.pool2\\.impl\\.GenericObjectPool")),
          Map.entry("c3p0", List.of("com\\.mchange\\.v2\\.c3p0\\.impl\\.C3P0PooledConnectionPool")),
          Map.entry("tomcat-jdbc", List.of("org\\.apache\\.tomcat\\.jdbc\\.pool\\.ConnectionPool")),
          Map.entry("druid", List.of("com\\.alibaba\\.druid\\.pool\\.DruidConnectionHolder")),
          Map.entry(
              "mybatis-druid",
              List.of(
                  "org\\.apache\\.ibatis\\.session\\.defaults\\.DefaultSqlSession",
                  "org\\.apache\\.ibatis\\.executor\\.CachingExecutor")),
          Map.entry("hibernate-hikari", List.of("org\\.hibernate\\.internal\\.SessionImpl")));

  private List<Combination> combinations;
  private final Map<Way, Outcome> seen = new EnumMap<>(Way.class);
  private Outcome enforced;

  @BeforeAll
  @Timeout(value = 12, unit = TimeUnit.MINUTES)
  void runTheCorpus() {
    combinations = JdbcCorpusRun.combinations();
    for (Way way : Way.values()) {
      String id = SUBJECT + "-" + way.name().toLowerCase();
      seen.put(way, JdbcCorpusRun.run(id, way.jvmOptions(SUBJECT), combinations));
    }
    enforced = JdbcCorpusRun.run(ENFORCE, List.of(enforcingAgent()), combinations);
  }

  @Test
  void thePlainRunGoesThroughEveryCombination() {
    Outcome plain = seen.get(Way.PLAIN);
    assertThat(plain.exit()).as(plain.stderr()).isZero();
    Map<String, List<String>> sections = JdbcCorpusRun.sections(plain.stdout());
    List<String> expected =
        combinations.stream().map(Combination::name).collect(Collectors.toList());
    expected.add("end");
    assertThat(sections.keySet()).containsExactlyElementsOf(expected);
    for (Combination c : combinations) {
      List<String> lines = sections.get(c.name());
      assertThat(lines).as(c.name()).noneMatch(l -> l.startsWith("FAILED"));
      assertThat(lines)
          .as(c.name())
          .contains("guard first: 1 row(s)", "guard second: 1 row(s)", "ping: 1");
      assertThat(lines).as(c.name()).anyMatch(l -> l.startsWith("missing table: "));
      if (c.access() != Access.DRIVER_MANAGER) {
        assertThat(lines).as(c.name()).contains("active: 0");
      }
    }
  }

  @Test
  void everyWaySeesWhatThePlainRunSees() {
    Transparency.assertSame(SUBJECT, seen);
  }

  @Test
  void theMonitorRunWeavesEveryDriverAndPool() {
    String log = Way.MONITOR.agentLogText(SUBJECT);
    List<String> ran =
        combinations.stream()
            .flatMap(c -> Stream.of(c.database().id, c.access().pool().id))
            .distinct()
            .collect(Collectors.toList());
    Set<String> woven =
        log.lines()
            .filter(l -> l.startsWith(INSTRUMENTED))
            .map(l -> l.substring(INSTRUMENTED.length()))
            .collect(Collectors.toSet());
    List<String> missing = new ArrayList<>();
    for (String part : ran) {
      for (String type : WOVEN.getOrDefault(part, List.of())) {
        if (!woven.contains(type)) {
          missing.add(part + ": " + type);
        }
      }
    }
    assertThat(missing).as("not woven, see %s", Way.MONITOR.agentLog(SUBJECT)).isEmpty();
    // ... with the monitor rules in force (the summary of what they would have blocked comes every
    // 10 s, too late for a fast run to count on it).
    assertThat(log).contains(" resources from " + Way.monitorRules() + ";");
  }

  @Test
  void theMonitorRunWeavesTheDriversPoolsAndOrmsForMethodResources() {
    String[] expected =
        combinations.stream()
            .flatMap(c -> Stream.of(c.database().id, c.access().id, c.access().pool().id))
            .distinct()
            .flatMap(part -> METHOD_WOVEN.getOrDefault(part, List.of()).stream())
            .toArray(String[]::new);
    MethodResources.assertWoven(SUBJECT, 300, expected);
  }

  static Stream<String> allCombinations() {
    return Combination.ALL.stream().map(Combination::name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allCombinations")
  void enforcingRulesAdmitOneSelectAndBlockTheNextWithSqlState53000(String name) {
    Assumptions.assumeTrue(
        combinations.stream().anyMatch(c -> c.name().equals(name)),
        name + ": its server is skipped on purpose (LEVEE_SKIP_*)");
    assertThat(enforced.exit()).as(enforced.stderr()).isZero();
    List<String> plain = JdbcCorpusRun.sections(seen.get(Way.PLAIN).stdout()).get(name);
    List<String> lines = JdbcCorpusRun.sections(enforced.stdout()).get(name);
    assertThat(lines).as(name).isNotNull();

    // Whatever the pool or ORM wraps it in, the cause at the root is the agent's (SPEC §2
    // on-block).
    String second =
        lines.stream().filter(l -> l.startsWith("guard second: ")).findFirst().orElse("none");
    assertThat(second)
        .as(name)
        .matches(
            "guard second: blocked (\\S+ <- )*"
                + Pattern.quote(
                    "java.sql.SQLTransientException[53000] \"levee: guard."
                        + name.replace('/', '.')
                        + " blocked the call (rate-limit)\""));
    assertThat(lines).as(name).contains("guard first: 1 row(s)");
    // All else as without rules: the pool is healthy, nothing else was blocked.
    List<String> rest = new ArrayList<>(lines);
    rest.remove(second);
    List<String> plainRest = new ArrayList<>(plain);
    plainRest.remove("guard second: 1 row(s)");
    assertThat(rest).as(name).isEqualTo(plainRest);
  }

  @Test
  void theEnforcingAgentLogsNoTrouble() throws IOException {
    String log = Files.readString(enforceLog(), StandardCharsets.UTF_8);
    assertThat(log).contains("[levee] INFO started");
    assertThat(Transparency.trouble(log)).as(enforceLog().toString()).isEmpty();
  }

  private static Path enforceLog() {
    return Way.dir().resolve(ENFORCE + ".levee.log");
  }

  private String enforcingAgent() {
    Path rules = GuardRules.write(combinations);
    try {
      Files.deleteIfExists(enforceLog());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return "-javaagent:"
        + TestPaths.agentJar()
        + "=log=debug,log-file="
        + enforceLog()
        + ",rules="
        + rules.toAbsolutePath();
  }
}
