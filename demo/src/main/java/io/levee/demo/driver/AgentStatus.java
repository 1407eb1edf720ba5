package io.levee.demo.driver;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table's state from the agent itself: its {@code /status} JSON (served with the agent option
 * {@code http=127.0.0.1:PORT}) gives each resource's breaker state, the concurrency limit in force
 * (the live adaptive limit for {@code system}) and the calls in flight. Latency and rates stay the
 * driver's own observations. When the endpoint does not answer (not attached yet, or detached) the
 * rows fall back to {@link ObservedStatus}.
 *
 * <p>Concurrency: only the table thread calls it.
 */
final class AgentStatus implements StatusSource {
  // /status is written by the agent with a fixed field order and no nesting before "blocked", so a
  // pattern per resource object is enough and keeps the demo free of a JSON library.
  private static final Pattern RESOURCE =
      Pattern.compile(
          "\\{\"name\":\"([^\"]*)\",\"kind\":\"[^\"]*\",\"mode\":\"([^\"]*)\",\"breaker\":"
              + "(null|\"[^\"]*\"),\"limit\":(null|\\d+),\"inFlight\":(\\d+)");

  private final HttpClient client;
  private final URI uri;
  private final ObservedStatus observed;
  private Map<String, Live> live = Map.of();

  AgentStatus(HttpClient client, String endpoint, ObservedStatus observed) {
    this.client = client;
    this.uri = URI.create("http://" + endpoint + "/status");
    this.observed = observed;
  }

  /** What /status says of one resource. */
  record Live(String mode, String breaker, String limit, int inFlight) {}

  @Override
  public void refresh() {
    try {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(500)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      live = response.statusCode() == 200 ? parse(response.body()) : Map.of();
    } catch (java.io.IOException e) {
      live = Map.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      live = Map.of();
    }
  }

  static Map<String, Live> parse(String json) {
    Map<String, Live> out = new HashMap<>();
    Matcher m = RESOURCE.matcher(json);
    while (m.find()) {
      String breaker = m.group(3).equals("null") ? null : m.group(3).replace("\"", "");
      String limit = m.group(4).equals("null") ? null : m.group(4);
      out.put(m.group(1), new Live(m.group(2), breaker, limit, Integer.parseInt(m.group(5))));
    }
    return out;
  }

  @Override
  public String limit(Row row, String configured) {
    Live r = live.get(row.resource);
    if (r == null || r.limit() == null) {
      return configured;
    }
    return (RulesOverview.SYSTEM.equals(row.resource) ? "adapt " : "max ") + r.limit();
  }

  @Override
  public String state(Row row, Tick window) {
    Live r = live.get(row.resource);
    if (r == null) {
      return observed.state(row, window);
    }
    String mode = "monitor".equals(r.mode()) ? " (monitor)" : "";
    if (r.breaker() != null) {
      return String.format(
          Locale.ROOT,
          "%-9s partner %.0f/s%s",
          r.breaker(),
          window.perSecond(window.partnerCalls()),
          mode);
    }
    if (r.limit() != null) {
      String seen = observed.state(row, window);
      return "in flight " + r.inFlight() + (seen.isEmpty() ? "" : ", " + seen) + mode;
    }
    return mode.trim();
  }
}
