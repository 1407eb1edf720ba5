package io.levee.it.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The agent's own {@code /status} and {@code /metrics}, served on the {@code http} option. */
final class AgentEndpoint {
  private static final Pattern RESOURCE =
      Pattern.compile(
          "\\{\"name\":\"([^\"]+)\".*?\"inFlight\":(\\d+),\"passed\":(\\d+)"
              + ".*?\"calls\":\\{\"success\":(\\d+),\"failure\":(\\d+),\"slow\":(\\d+),"
              + "\"ignored\":(\\d+)\\}.*?\"keysEvicted\":(\\d+)[,}]");

  private final int port;
  private final HttpClient client = HttpClient.newHttpClient();

  AgentEndpoint(int port) {
    this.port = port;
  }

  /** A free loopback port for the {@code http} option. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code http=127.0.0.1:<port>} */
  String option() {
    return "http=127.0.0.1:" + port;
  }

  /** One row of {@code /status}: what went in and what came out. */
  record Row(String name, long inFlight, long passed, long completed, long keysEvicted) {
    /** Admitted calls whose end was never reported; negative if one was reported twice. */
    long unfinished() {
      return passed - completed;
    }

    @Override
    public String toString() {
      return name + ": passed " + passed + ", completed " + completed + ", in flight " + inFlight;
    }
  }

  List<Row> status() {
    String json = get("/status");
    List<Row> rows = new ArrayList<>();
    Matcher m = RESOURCE.matcher(json);
    while (m.find()) {
      long completed = 0;
      for (int g = 4; g <= 7; g++) {
        completed += Long.parseLong(m.group(g));
      }
      rows.add(
          new Row(
              m.group(1),
              Long.parseLong(m.group(2)),
              Long.parseLong(m.group(3)),
              completed,
              Long.parseLong(m.group(8))));
    }
    if (rows.isEmpty()) {
      throw new IllegalStateException("no resources in /status: " + json);
    }
    return rows;
  }

  Row row(String name) {
    return status().stream()
        .filter(r -> r.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no resource " + name + " in /status"));
  }

  /**
   * The value of one series of {@code /metrics}, e.g. {@code
   * levee_keys_evicted_total{resource="t"}}.
   */
  double metric(String series) {
    for (String line : get("/metrics").split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    throw new IllegalStateException("no series " + series + " in /metrics");
  }

  private String get(String path) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(10))
              .build();
      return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
