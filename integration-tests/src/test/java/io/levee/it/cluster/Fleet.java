package io.levee.it.cluster;

import io.levee.it.apps.QuotaApp;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.RulesFile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Instances of {@link QuotaApp}, each in its own JVM with the packaged agent and the same rules (a
 * cluster-wide quota on calls to {@code partnerUrl}), each with its {@code /status} endpoint; the
 * test sets each one's offered rate and reads its counts and status.
 */
final class Fleet implements AutoCloseable {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  final List<ForkedApp> apps = new ArrayList<>();
  final List<Integer> statusPorts = new ArrayList<>();

  /** Starts {@code n} instances together, with {@code rules} as a rules file named {@code name}. */
  static Fleet start(String name, int n, String rules, String partnerUrl) {
    return start(name, n, rules, partnerUrl, b -> b);
  }

  /** As above, each instance's start also set up by {@code setUp} (its environment, options). */
  static Fleet start(
      String name,
      int n,
      String rules,
      String partnerUrl,
      java.util.function.UnaryOperator<ForkedApp.Builder> setUp) {
    Path file = RulesFile.write(name, rules);
    Fleet fleet = new Fleet();
    List<CompletableFuture<ForkedApp>> starting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int port = freePort();
      fleet.statusPorts.add(port);
      ForkedApp.Builder app =
          setUp.apply(
              ForkedApp.of(QuotaApp.class)
                  .name(name + "-" + i)
                  .agent("rules=" + file.toAbsolutePath() + ",http=127.0.0.1:" + port)
                  .args(partnerUrl));
      starting.add(CompletableFuture.supplyAsync(app::start));
    }
    RuntimeException failed = null;
    for (CompletableFuture<ForkedApp> f : starting) {
      try {
        fleet.apps.add(f.join());
      } catch (RuntimeException e) {
        failed = e;
      }
    }
    if (failed != null) {
      fleet.close();
      throw failed;
    }
    return fleet;
  }

  /** Offers {@code perSecond} calls a second from instance {@code i}. */
  void rate(int i, double perSecond) {
    get(apps.get(i).url("/rate?perSecond=" + perSecond));
  }

  void rates(double... perSecond) {
    for (int i = 0; i < perSecond.length; i++) {
      rate(i, perSecond[i]);
    }
  }

  /** Instance {@code i}'s counts: admitted, blocked, errors, admittedMaxMicros, … */
  Map<String, String> counts(int i) {
    return get(apps.get(i).url("/counts"))
        .lines()
        .map(l -> l.split(" ", 2))
        .collect(Collectors.toMap(p -> p[0], p -> p.length > 1 ? p[1] : ""));
  }

  long count(int i, String what) {
    return Long.parseLong(counts(i).get(what));
  }

  /** Instance {@code i}'s {@code /status}. */
  String status(int i) {
    return get("http://127.0.0.1:" + statusPorts.get(i) + "/status");
  }

  /** Instance {@code i}'s {@code /metrics}. */
  String metrics(int i) {
    return get("http://127.0.0.1:" + statusPorts.get(i) + "/metrics");
  }

  /** Kills instance {@code i} with SIGKILL: no shutdown hook runs. */
  void kill(int i) {
    apps.get(i).kill();
  }

  /**
   * Polls instance {@code i}'s {@code /status} every 20 ms until it contains {@code text}; the
   * milliseconds that took, or -1 after {@code timeoutMillis}.
   */
  long awaitStatus(int i, String text, long timeoutMillis) {
    long start = System.nanoTime();
    while ((System.nanoTime() - start) / 1_000_000L < timeoutMillis) {
      String status;
      try {
        status = status(i);
      } catch (IllegalStateException notServingYet) {
        // The endpoint starts with the rules, beside the application's main: not up yet.
        status = "";
      }
      if (status.contains(text)) {
        return (System.nanoTime() - start) / 1_000_000L;
      }
      sleep(20);
    }
    return -1;
  }

  /** The agent lines of instance {@code i}'s log that contain {@code text}. */
  List<String> logLines(int i, String text) {
    return apps.get(i).leveeLines().stream()
        .filter(l -> l.contains(text))
        .collect(Collectors.toList());
  }

  @Override
  public void close() {
    for (ForkedApp app : apps) {
      app.close();
    }
  }

  static String get(String url) {
    try {
      HttpResponse<String> r =
          CLIENT.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      return r.body();
    } catch (IOException e) {
      throw new IllegalStateException(url + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static void sleep(long millis) {
    ForkedApp.sleep(millis);
  }
}
