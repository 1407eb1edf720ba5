package io.levee.it.reliability;

import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL cluster of one test's own, which the test may stop and start: never the shared one
 * of {@code run-tests.sh}, which other tests use meanwhile. Driven through the functions of {@code
 * scripts/test-postgres.sh} (they run initdb and pg_ctl as {@code postgres} when we are root).
 *
 * <p>Missing PostgreSQL binaries fail the test, as for the other PostgreSQL tests, unless {@code
 * LEVEE_SKIP_PG=1} opts out, which skips it.
 */
final class PrivatePostgres implements AutoCloseable {
  private final int port;

  private PrivatePostgres(int port) {
    this.port = port;
  }

  /**
   * A fresh cluster with database and user {@code levee} on a loopback port that was free a moment
   * ago: another job may take it in between, so a start that fails is tried on another port. A port
   * whose cluster folder exists is skipped, for it may be another test's halted cluster, which a
   * start there would wipe.
   */
  static PrivatePostgres start() {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freePort();
      if (Files.exists(clusterDir(port))) {
        continue;
      }
      try {
        return start(port);
      } catch (IllegalStateException e) {
        last = e;
        new PrivatePostgres(port).close();
      }
    }
    throw last != null ? last : new IllegalStateException("no free port for PostgreSQL");
  }

  /** A fresh cluster on 127.0.0.1:{@code port} with database and user {@code levee}. */
  static PrivatePostgres start(int port) {
    if (!hasBinaries()) {
      Assumptions.assumeFalse(
          "1".equals(System.getenv("LEVEE_SKIP_PG")),
          "LEVEE_SKIP_PG=1 and no PostgreSQL under /usr/lib/postgresql: database outage skipped");
      throw new IllegalStateException(
          "no PostgreSQL binaries under /usr/lib/postgresql: run ./run-tests.sh (it installs"
              + " them), apt-get install postgresql, or set LEVEE_SKIP_PG=1 to skip this test");
    }
    PrivatePostgres pg = new PrivatePostgres(port);
    pg.script("pg_start");
    return pg;
  }

  String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/levee";
  }

  String user() {
    return "levee";
  }

  String password() {
    return "levee";
  }

  /**
   * How many sessions the server has accepted on database {@code levee}, this query's own included.
   * PostgreSQL keeps the count across a clean stop and start.
   */
  long sessions() throws SQLException {
    try (Connection c = DriverManager.getConnection(url(), user(), password());
        Statement s = c.createStatement();
        ResultSet rows =
            s.executeQuery("select sessions from pg_stat_database where datname = 'levee'")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /** Stops the server (fast shutdown: sessions are terminated), keeping its data. */
  void halt() {
    script("pg_halt");
  }

  /** Starts the halted server again; returns once it accepts connections. */
  void resume() {
    script("pg_resume");
  }

  /** Stops the server and deletes the cluster. */
  @Override
  public void close() {
    script("pg_stop");
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where {@code scripts/test-postgres.sh} keeps the cluster of a port. */
  private static Path clusterDir(int port) {
    String tmp = System.getenv().getOrDefault("TMPDIR", "/tmp");
    return Path.of(tmp.isEmpty() ? "/tmp" : tmp, "levee-pg-" + port);
  }

  int port() {
    return port;
  }

  private static boolean hasBinaries() {
    try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
      return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/pg_ctl")));
    } catch (IOException e) {
      return false;
    }
  }

  private void script(String function) {
    Path script = TestPaths.root().resolve("scripts/test-postgres.sh");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", "source \"$0\" && " + function, script.toString())
            .redirectErrorStream(true);
    builder.environment().put("LEVEE_PG_PORT", String.valueOf(port));
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(function + " on port " + port + " took over 60 s");
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(function + " on port " + port + " failed:\n" + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException(function + " on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
