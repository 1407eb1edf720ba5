package io.levee.benchmarks.instrumentation;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the instrumentation costs a real call: one {@code HttpURLConnection} GET to a local server
 * and one prepared H2 query, as an application makes them. This class knows nothing of Levee: the
 * run decides whether the forked JVM has the agent ({@code -jvmArgsAppend -javaagent:...}) and with
 * which rules, so the bytecode measured is exactly what the agent makes of these JDK and driver
 * classes. {@code benchmarks/run-instrumentation.sh} runs it without the agent, with rules that
 * match neither call, and with rules that admit both (a concurrency limit that is never reached).
 *
 * <p>The server answers from one thread with a fixed two-byte body over keep-alive connections; the
 * query reads one row of a 1000-row table by primary key on a connection held open, preparing and
 * closing its statement each time as old JDBC code does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InstrumentedCalls {
  static final String JDBC_URL = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
  private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

  @State(Scope.Benchmark)
  public static class LocalServer {
    HttpServer server;
    URL url;

    @Setup(Level.Trial)
    public void start() throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
      server.createContext(
          "/bench/",
          exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, OK.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(OK);
            }
          });
      server.setExecutor(Executors.newSingleThreadExecutor());
      server.start();
      url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/bench/price");
    }

    @TearDown(Level.Trial)
    public void stop() {
      server.stop(0);
      ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
  }

  @State(Scope.Thread)
  public static class Database {
    Connection connection;
    int id;
    int sink;

    @Setup(Level.Trial)
    public void open() throws SQLException {
      sink = iterateMixedSets();
      connection = DriverManager.getConnection(JDBC_URL, "sa", "");
      try (Statement s = connection.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS prices (id INT PRIMARY KEY, amount DECIMAL(10,2))");
        s.execute("DELETE FROM prices");
        s.execute("INSERT INTO prices SELECT x, x * 1.5 FROM SYSTEM_RANGE(1, 1000)");
      }
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      connection.close();
    }

    /**
     * Gives the JDK's shared {@code HashSet.iterator} the profile an application has by its first
     * query: it has met {@code LinkedHashSet}s too, so the iterators of H2's own {@code HashSet}s
     * are allocated rather than scalar-replaced. Left to chance, whether the profile records one of
     * the few {@code LinkedHashSet}s a fork iterates at start-up (JMH's, {@code DriverManager}'s
     * {@code ServiceLoader}) depends on JIT timing, which any {@code -javaagent} shifts, even one
     * that does nothing: the case without the agent would often be spared an allocation that has
     * nothing to do with Levee.
     */
    private static int iterateMixedSets() {
      Set<Integer> plain = new HashSet<>(Arrays.asList(1, 2));
      Set<Integer> linked = new LinkedHashSet<>(plain);
      int sum = 0;
      for (int i = 0; i < 20_000; i++) {
        for (int v : i % 50 == 0 ? linked : plain) {
          sum += v;
        }
      }
      return sum;
    }
  }

  @Benchmark
  public int httpCall(LocalServer server) throws IOException {
    HttpURLConnection c = (HttpURLConnection) server.url.openConnection();
    int status = c.getResponseCode();
    try (InputStream in = c.getInputStream()) {
      return status + in.readAllBytes().length;
    }
  }

  @Benchmark
  public long jdbcQuery(Database db) throws SQLException {
    db.id = db.id % 1000 + 1;
    try (PreparedStatement s =
        db.connection.prepareStatement("SELECT amount FROM prices WHERE id = ?")) {
      s.setInt(1, db.id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    }
  }
}
