package io.levee.load.gen;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a contender's current concurrency limit: the application's {@code /bench/limit} for a
 * filter, or the {@code system} entry of the Levee agent's {@code /status}. -1 when there is none.
 */
public final class LimitReader {
  private static final Pattern SYSTEM_LIMIT =
      Pattern.compile("\"name\":\"system\"[^{}]*?\"limit\":(\\d+)");

  private final HttpClient client;
  private final URI uri;
  private final boolean levee;

  public LimitReader(HttpClient client, String url, boolean levee) {
    this.client = client;
    this.uri = URI.create(url);
    this.levee = levee;
  }

  public int read() {
    try {
      HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build();
      String body = client.send(req, HttpResponse.BodyHandlers.ofString()).body().trim();
      if (!levee) {
        return Integer.parseInt(body);
      }
      Matcher m = SYSTEM_LIMIT.matcher(body);
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
    } catch (Exception e) {
      return -1;
    }
  }
}
