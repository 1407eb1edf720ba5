package io.levee.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Programs;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's live page in a real headless Chromium, against a forked Tomcat application whose
 * requests a rate limit refuses and whose partner calls an open breaker refuses: after the page has
 * polled, its DOM shows both resources with non-zero blocks per second, and a screenshot of it is
 * kept in {@code target/live-page/} (the README's picture is one of these).
 *
 * <p>Chromium comes from {@code scripts/ensure-package.sh} (run by {@code run-tests.sh}, which
 * exports {@code LEVEE_CHROMIUM}); without it this test fails, unless {@code LEVEE_SKIP_CHROMIUM=1}
 * skips it on purpose.
 */
class LivePageIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: checkout
          match: { servlet: { paths: ["/shop/**"] } }
          rate-limit: { rate: 5/s, burst: 5 }
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 4, window: 1m, open-for: 1m }
      """;
  private static final Pattern CARD =
      Pattern.compile(
          "<section class=\"card\" data-resource=\"([^\"]+)\" data-admitted-rate=\"([^\"]+)\""
              + " data-blocked-rate=\"([^\"]+)\">");
  private static final Pattern POLLS = Pattern.compile("<body data-polls=\"(\\d+)\"");

  @Test
  void showsEachResourceWithItsBlocksPerSecondInARealBrowser() throws Exception {
    Path chromium = chromiumBinary();
    int port = freePort();
    Path work = TestPaths.root().resolve("integration-tests/target/live-page");
    Files.createDirectories(work);
    try (LocalHttpServer failing = LocalHttpServer.start().fail()) {
      Path rules = RulesFile.write("live-page", RULES.formatted(failing.port()));
      try (ForkedApp app =
          ForkedApp.of(TomcatApp.class)
              .agent("rules=" + rules.toAbsolutePath() + ",http=127.0.0.1:" + port)
              .name("live-page")
              .start()) {
        AppClient client = new AppClient(app);
        String partner = AppClient.encode(failing.url("/charge"));
        assertThat(client.get("/http?repeat=8&url=" + partner).body()).contains("responses=4");
        // 20 requests a second against 5/s, long enough for the page to open with a few seconds
        // of samples and to poll while they go on.
        CompletableFuture<AppClient.Paced> load =
            CompletableFuture.supplyAsync(
                () -> client.paced("/shop/items", 20, Duration.ofSeconds(14)));
        CompletableFuture<Void> partnerCalls =
            CompletableFuture.runAsync(
                () -> {
                  for (int i = 0; i < 12; i++) {
                    client.get("/http?repeat=3&url=" + partner);
                    ForkedApp.sleep(1_000);
                  }
                });
        Thread.sleep(5_000);

        String url = "http://127.0.0.1:" + port + "/";
        String page = chromium(chromium, work, "--dump-dom", url);
        // What the page rendered, without its script (which holds the same markup as templates).
        String dom = page.substring(0, Math.max(0, page.indexOf("<script>")));
        Path screenshot = work.resolve("live-page.png");
        Files.deleteIfExists(screenshot);
        chromium(chromium, work, "--screenshot=" + screenshot, "--window-size=1280,1000", url);

        assertThat(load.get(60, TimeUnit.SECONDS).count(429)).isPositive();
        partnerCalls.get(60, TimeUnit.SECONDS);

        Map<String, double[]> cards = new HashMap<>();
        Matcher m = CARD.matcher(dom);
        while (m.find()) {
          cards.put(m.group(1), new double[] {rate(m.group(2)), rate(m.group(3))});
        }
        assertThat(cards)
            .as("the resources the page shows, in %s", dom)
            .containsOnlyKeys("checkout", "partner");
        assertThat(cards.get("checkout")[0]).as("checkout admitted per second").isBetween(1.0, 8.0);
        assertThat(cards.get("checkout")[1]).as("checkout blocked per second").isGreaterThan(5.0);
        assertThat(cards.get("partner")[1]).as("partner blocked per second").isGreaterThan(0.0);
        assertThat(dom).contains("blocked: rate-limit", "blocked: circuit-open", "breaker open");
        assertThat(dom).contains(rules.toAbsolutePath().toString());
        Matcher polls = POLLS.matcher(dom);
        assertThat(polls.find()).isTrue();
        assertThat(Integer.parseInt(polls.group(1))).as("polls the page made").isGreaterThan(1);
        assertThat(Files.size(screenshot)).isGreaterThan(20_000);
      }
    }
  }

  private static double rate(String text) {
    return "–".equals(text) ? -1 : Double.parseDouble(text);
  }

  /**
   * Runs Chromium headless on {@code url} with a profile of its own; its virtual time lets the page
   * poll for a few seconds without the test waiting them out. Returns its standard output.
   */
  private static String chromium(Path binary, Path work, String what, String... rest)
      throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(work, "profile");
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--user-data-dir=" + profile,
            "--virtual-time-budget=4000",
            what));
    command.addAll(List.of(rest));
    Path out = work.resolve("chromium.stdout");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(work.resolve("chromium.stderr").toFile())
            .start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("Chromium did not finish within 90 s: %s", command);
    }
    assertThat(p.exitValue()).as("Chromium's exit status; its log is in %s", work).isZero();
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private static Path chromiumBinary() {
    return Programs.find("chromium", "LEVEE_CHROMIUM", "LEVEE_SKIP_CHROMIUM");
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
