package io.levee.it.apps.corpus.jdbc;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JDBC corpus application: runs, for each combination named on the command line ({@code
 * access/database}, see {@link Combination}), its script, the guard's two SELECTs and a health
 * check of its pool, and prints what it saw ({@link Out}) to stdout. It knows nothing of Levee; a
 * test runs it with and without the agent and compares what it printed.
 *
 * <p>A combination that fails prints {@code FAILED} with the exception and the run goes on, so that
 * one broken driver shows as such rather than hiding the others.
 */
public final class JdbcCorpusApp {
  private JdbcCorpusApp() {}

  public static void main(String[] args) {
    quietLogging();
    Out out = new Out(System.out);
    for (String name : args) {
      Combination combination = Combination.byName(name);
      Database db = combination.database();
      out.section(combination.name());
      try (Connections connections = Pools.open(combination.access(), db)) {
        switch (combination.access()) {
          case MYBATIS:
            new MyBatisScript(connections, out).run();
            break;
          case HIBERNATE:
            new HibernateScript(connections, out).run();
            break;
          default:
            new JdbcScript(connections, db, combination.table(), out).run();
            GuardScript.run(connections, db, combination.guardTable(), out);
        }
        Health.check(connections, db, out);
      } catch (Exception | LinkageError e) {
        out.put("FAILED", Out.chain(e));
        e.printStackTrace();
      }
      out.flush();
    }
    DerbyServer.stop();
    out.section("end");
    out.flush();
    // Pools and Derby leave threads behind; the run is over.
    System.exit(0);
  }

  /**
   * The libraries' INFO chatter carries times and identifiers; warnings and errors remain, on
   * stderr, without a timestamp, so that two runs can be compared line by line.
   */
  private static void quietLogging() {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%6$s%n");
    Logger.getLogger("").setLevel(Level.WARNING);
  }
}
