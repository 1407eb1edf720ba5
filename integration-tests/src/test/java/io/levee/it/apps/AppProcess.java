package io.levee.it.apps;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;

/**
 * What every test application does around its container: the port, the READY line, the lifeline,
 * the container's temporary base directory.
 */
public final class AppProcess {
  private AppProcess() {}

  /**
   * A temporary base directory for the container, deleted with its contents when the application
   * exits (the tests stop it with SIGTERM first, so shutdown hooks run); {@code deleteOnExit} would
   * leave it behind once the container has written its work directory into it.
   */
  public static File tempBaseDir(String prefix) throws IOException {
    Path base = Files.createTempDirectory(prefix);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(base)));
    return base.toFile();
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is no reason to fail a shutdown
    }
  }

  /** The port to listen on: the first argument, or 0 for a free one. */
  public static int port(String[] args) {
    return args.length > 0 ? Integer.parseInt(args[0]) : 0;
  }

  /**
   * Announces the port to the test and exits when the test's end of stdin closes, so that a test
   * JVM that dies never leaves an application behind.
   */
  public static void ready(int port) {
    System.out.println("READY " + port);
    System.out.flush();
    Thread lifeline =
        new Thread(
            () -> {
              try {
                while (System.in.read() != -1) {
                  // the test never writes; EOF means it is gone
                }
              } catch (IOException e) {
                // same as EOF
              }
              System.exit(0);
            },
            "lifeline");
    lifeline.setDaemon(true);
    lifeline.start();
  }

  /** Query parameters of a request, first value of each (servlet API agnostic). */
  public static Map<String, String> firstValues(Map<String, String[]> parameters) {
    Map<String, String> values = new HashMap<>();
    parameters.forEach((k, v) -> values.put(k, v.length == 0 ? "" : v[0]));
    return values;
  }

  /**
   * What {@code ?pool&ms=} holds for its pause, as a query holds a connection of a database pool:
   * {@code levee.it.pool} permits (4), given in the order they were asked for.
   */
  private static final Semaphore POOL = new Semaphore(Integer.getInteger("levee.it.pool", 4), true);

  /**
   * Sleeps {@code ms} milliseconds when the request asks for it ({@code ?ms=}); with {@code ?pool},
   * holding one of {@link #POOL}'s permits meanwhile.
   */
  public static void pause(Map<String, String> query) {
    String ms = query.get("ms");
    if (ms == null) {
      return;
    }
    boolean pooled = query.containsKey("pool");
    try {
      if (pooled) {
        POOL.acquire();
      }
      try {
        Thread.sleep(Long.parseLong(ms));
      } finally {
        if (pooled) {
          POOL.release();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
