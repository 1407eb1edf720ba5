package io.levee.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The agent's {@code /status}, one row per resource, read from its JSON; and its metrics. */
public final class StatusRows {
  private static final Pattern ROW =
      Pattern.compile(
          "\\{\"name\":\"([^\"]+)\",\"kind\":\"([^\"]+)\",\"mode\":\"([^\"]+)\","
              + "\"breaker\":(null|\"[^\"]+\"),\"limit\":(null|\\d+),\"inFlight\":(-?\\d+),"
              + "\"passed\":(\\d+),\"blocked\":\\{([^}]*)\\},\"wouldBlock\":\\{([^}]*)\\},"
              + "\"calls\":\\{([^}]*)\\}");
  private static final Pattern COUNT = Pattern.compile("\"([^\"]+)\":(\\d+)");

  private StatusRows() {}

  /** A free loopback port for the agent's {@code http} option, which serves {@code /status}. */
  public static int freePort() {
    // Two ports asked for in a row (a container's HTTP and shutdown ports) could otherwise be the
    // same one, freed and handed out again before either is bound.
    return FreePorts.next();
  }

  /** One resource as {@code /status} shows it; counts by reason or outcome, zeros left out. */
  public record Row(
      String name,
      String kind,
      String mode,
      String breaker,
      String limit,
      long inFlight,
      long passed,
      Map<String, Long> blocked,
      Map<String, Long> wouldBlock,
      Map<String, Long> calls) {}

  public static Map<String, Row> get(int port) throws IOException, InterruptedException {
    return parse(fetch(port, "/status"));
  }

  /** The endpoint's {@code /metrics}, in the Prometheus text format. */
  public static String metrics(int port) throws IOException, InterruptedException {
    return fetch(port, "/metrics");
  }

  private static String fetch(int port, String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  public static Map<String, Row> parse(String json) {
    Map<String, Row> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(json);
    while (m.find()) {
      rows.put(
          m.group(1),
          new Row(
              m.group(1),
              m.group(2),
              m.group(3),
              m.group(4).replace("\"", ""),
              m.group(5),
              Long.parseLong(m.group(6)),
              Long.parseLong(m.group(7)),
              counts(m.group(8)),
              counts(m.group(9)),
              counts(m.group(10))));
    }
    if (rows.isEmpty()) {
      throw new IllegalStateException("no resources in /status: " + json);
    }
    return rows;
  }

  private static Map<String, Long> counts(String pairs) {
    Map<String, Long> counts = new LinkedHashMap<>();
    Matcher m = COUNT.matcher(pairs);
    while (m.find()) {
      long n = Long.parseLong(m.group(2));
      if (n != 0) {
        counts.put(m.group(1), n);
      }
    }
    return counts;
  }
}
