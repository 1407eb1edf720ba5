package io.levee.it.corpus;

import io.levee.it.support.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's {@code /status}, served on its {@code http} option, read while a subject runs: for
 * each resource its kind, the calls it let through and those it would have blocked, which a run's
 * decisions show however short it is (the log's summary comes only every 10 s).
 */
public final class AgentStatus {
  /**
   * The start of one resource's object, up to its counts of calls let through and of calls it would
   * have blocked, by reason.
   */
  private static final Pattern ROW =
      Pattern.compile(
          "\\{\"name\":\"([^\"]+)\",\"kind\":\"([^\"]+)\",\"mode\":\"[^\"]+\",.*?\"passed\":(\\d+)"
              + ",\"blocked\":\\{[^}]*\\},\"wouldBlock\":\\{([^}]*)\\}");

  /** One count of a reason object, e.g. {@code "rate-limit":41}. */
  private static final Pattern COUNT = Pattern.compile(":(\\d+)");

  private AgentStatus() {}

  /**
   * One resource: its kind, the calls it let through and those it would have blocked (monitor
   * mode), every reason together.
   */
  public record Row(String kind, long passed, long wouldBlock) {}

  /** A free loopback port for the agent's {@code http} option. */
  public static int freePort() {
    return FreePorts.next();
  }

  /** The agent option that serves {@code /status} on {@code port}. */
  public static String option(int port) {
    return "http=127.0.0.1:" + port;
  }

  /** The rows of the agent's {@code /status} on {@code port}, by resource name. */
  public static Map<String, Row> read(int port) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
            .timeout(Duration.ofSeconds(10))
            .build();
    String json;
    try {
      json = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException("the agent's /status on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Map<String, Row> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(json);
    while (m.find()) {
      long wouldBlock = 0;
      Matcher count = COUNT.matcher(m.group(4));
      while (count.find()) {
        wouldBlock += Long.parseLong(count.group(1));
      }
      rows.put(m.group(1), new Row(m.group(2), Long.parseLong(m.group(3)), wouldBlock));
    }
    return rows;
  }
}
