package io.levee.it.http;

import static io.levee.it.http.LastGoodPartner.BIG;
import static io.levee.it.http.LastGoodPartner.GZIP_TEXT;
import static io.levee.it.http.LastGoodPartner.PARTIAL;
import static io.levee.it.http.LastGoodPartner.STREAM_LENGTH;
import static io.levee.it.http.LastGoodPartner.STREAM_PAUSE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.LastGoodApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ClientLines;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The last good answer (SPEC §5.1, {@code fallback.last-good}) through each HTTP client Levee
 * protects, with the packaged agent in one forked application per subclass and a real local
 * partner: good answers are kept as the application reads them, and once the breaker opens a {@code
 * GET} gets the last good answer of its URL, marked {@code Levee-Fallback}, in the client's own
 * response type, without the partner being contacted; then the static fallback once the answer is
 * too old, and always for what must not be kept. A gzip-encoded answer is kept as the application
 * read it, decoded, with headers that describe that body. Each client and test has its own partner
 * and resource, so their breakers stay apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LastGoodContract {
  private static final String RESOURCES =
      """
        - name: prices-%1$s
          match: { http: { urls: ["http://127.0.0.1:%2$d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 60s, open-for: 60s }
          on-block:
            fallback:
              last-good: 4s
              status: 503
              body: static
              headers: { Content-Type: text/plain }
              max-body: 64KiB
              max-entries: 10
        - name: catalogue-%1$s
          match: { http: { urls: ["http://127.0.0.1:%3$d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 60s, open-for: 60s }
          on-block:
            fallback: { last-good: 5m, max-body: 1MiB, body: static }
      """;

  /** How long a kept answer may serve: the {@code last-good} age of {@code prices}. */
  private static final int AGE_MS = 4_000;

  private final Map<String, LastGoodPartner> prices = new LinkedHashMap<>();
  private final Map<String, LastGoodPartner> catalogue = new LinkedHashMap<>();
  private ForkedApp app;
  private AppClient client;

  protected abstract int jdk();

  /** The client line ({@code client-lines/<line>}) in place of the tests' own, or null. */
  protected String line() {
    return null;
  }

  /**
   * The clients of {@code LastGoodClients} under test, each with the jar the application must load
   * it from (empty for the JDK's own).
   */
  protected abstract Map<String, String> clients();

  private String name() {
    return "last-good-" + (line() == null ? "" : line() + "-") + "jdk" + jdk();
  }

  @BeforeAll
  void start() {
    StringBuilder rules = new StringBuilder("version: 1\nresources:\n");
    for (String c : clients().keySet()) {
      prices.put(c, new LastGoodPartner());
      catalogue.put(c, new LastGoodPartner());
      rules.append(RESOURCES.formatted(c, prices.get(c).port(), catalogue.get(c).port()));
    }
    app =
        ForkedApp.of(LastGoodApp.class)
            .jdk(Jdk.require(jdk()))
            .classPath(
                line() == null
                    ? TestPaths.applicationClassPath()
                    : ClientLines.applicationClassPath(line()))
            .rules(RulesFile.write(name(), rules.toString()))
            .name(name())
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    prices.values().forEach(LastGoodPartner::close);
    catalogue.values().forEach(LastGoodPartner::close);
  }

  List<String> clientNames() {
    return List.copyOf(clients().keySet());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("clientNames")
  void servesTheLastGoodAnswerWhileOpenThenTheStaticFallbackOnceItIsTooOld(String c) {
    LastGoodPartner partner = prices.get(c);
    Reply first = get(c, partner, "/prices", "&text=1");
    assertThat(first.get("status")).as(first.raw()).isEqualTo("200");
    assertThat(first.get("library")).as("the client under test").isEqualTo(clients().get(c));
    assertThat(first.get("callback")).isEqualTo(buffersWholeBody(c) ? "completed 200" : "");
    partner.version.set(2);
    Reply good = get(c, partner, "/prices", "&text=1");
    assertThat(good.get("body")).isEqualTo("{\"eur\":2}");
    Reply redirected = get(c, partner, "/moved", "&text=1");
    assertThat(redirected.get("body")).as(redirected.raw()).isEqualTo("{\"eur\":2}");
    assertThat(get(c, partner, "/nostore", "&text=1").get("status")).isEqualTo("200");
    assertThat(get(c, partner, "/private", "&text=1").get("status")).isEqualTo("200");
    assertThat(get(c, partner, "/big", "").number("length")).isEqualTo(BIG);
    assertThat(get(c, partner, "/big-chunked", "").number("length")).isEqualTo(BIG);
    Reply partial = get(c, partner, "/partial", "&readBytes=10");
    assertThat(partial.number("length")).as(partial.raw()).isEqualTo(10);
    Reply zipped = get(c, partner, "/gzip", "&text=1");
    long keptAt = System.nanoTime();
    assertThat(zipped.get("body")).as(zipped.raw()).isEqualTo(GZIP_TEXT);
    // decoded by the client; HttpClient 5.6, classic and async, leaves Content-Encoding and
    // Content-Length of the encoded body on the live answer
    assertThat(zipped.get("X-Encoded")).isEqualTo(decompresses(c) ? "gzip" : "identity");

    int receivedWhenOpen = open(c, partner);

    Reply kept = get(c, partner, "/prices", "&text=1");
    assertThat(kept.get("status")).as(kept.raw()).isEqualTo("200");
    assertThat(kept.get("body")).isEqualTo("{\"eur\":2}");
    assertThat(kept.get("Content-Type")).isEqualTo("application/json");
    assertThat(kept.get("X-Version")).isEqualTo("2");
    assertThat(kept.get("Content-Length")).isEqualTo("9");
    assertThat(kept.get("Levee-Fallback")).matches("last-good; age=[0-4]");
    assertThat(kept.get("callback")).isEqualTo(buffersWholeBody(c) ? "completed 200" : "");
    Reply movedKept = get(c, partner, "/moved", "&text=1");
    assertThat(movedKept.get("body")).as("kept under the URL asked for").isEqualTo("{\"eur\":2}");
    assertThat(movedKept.get("Levee-Fallback")).startsWith("last-good");
    Reply zippedKept = get(c, partner, "/gzip", "&text=1");
    assertThat(zippedKept.get("body")).as(zippedKept.raw()).isEqualTo(GZIP_TEXT);
    assertThat(zippedKept.get("Levee-Fallback")).startsWith("last-good");
    assertThat(zippedKept.get("Content-Encoding")).as("served decoded").isEmpty();
    assertThat(zippedKept.get("Content-Length"))
        .isEqualTo(Integer.toString(GZIP_TEXT.getBytes(StandardCharsets.UTF_8).length));
    Reply partialKept = get(c, partner, "/partial", "&text=1");
    if (buffersWholeBody(c)) {
      // the client had read it whole before the application read any of it
      assertThat(partialKept.get("Levee-Fallback")).as(partialKept.raw()).startsWith("last-good");
      assertThat(partialKept.number("length")).isEqualTo(PARTIAL);
    } else {
      assertThat(partialKept.get("body")).as(partialKept.raw()).isEqualTo("static");
    }
    for (String notKept : new String[] {"/nostore", "/private", "/big", "/big-chunked"}) {
      Reply r = get(c, partner, notKept, "&text=1");
      assertThat(r.get("status")).as(notKept + ": " + r.raw()).isEqualTo("503");
      assertThat(r.get("body")).as(notKept).isEqualTo("static");
      assertThat(r.get("Levee-Fallback")).as(notKept).isEmpty();
      assertThat(r.get("callback")).isEqualTo(buffersWholeBody(c) ? "completed 503" : "");
    }
    assertThat(partner.received()).as("the partner is not contacted").isEqualTo(receivedWhenOpen);

    ForkedApp.sleep(Math.max(0, AGE_MS + 500 - (System.nanoTime() - keptAt) / 1_000_000));
    for (String tooOld : new String[] {"/prices", "/gzip"}) {
      Reply old = get(c, partner, tooOld, "&text=1");
      assertThat(old.get("status")).as(old.raw()).isEqualTo("503");
      assertThat(old.get("body")).isEqualTo("static");
      assertThat(old.get("Levee-Fallback")).isEmpty();
    }
    assertThat(partner.received()).isEqualTo(receivedWhenOpen);
  }

  /**
   * A body the application streams still streams through the copy, and is served whole once the
   * breaker opens; except from the JDK client, which keeps only the bodies its handler reads whole
   * ({@code ofString}, {@code ofByteArray}). The async client reads every body whole before it
   * hands it over, so nothing streams to the application there; it is kept all the same.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("clientNames")
  void aStreamedBodyStillStreamsAndIsServedWholeOnceTheBreakerOpens(String c) throws Exception {
    LastGoodPartner partner = catalogue.get(c);
    Reply live = get(c, partner, "/stream", "&buffer=4096");
    assertThat(live.get("status")).as(live.raw()).isEqualTo("200");
    assertThat(live.get("Transfer-Encoding")).isEqualTo("chunked");
    assertThat(live.number("length")).isEqualTo(STREAM_LENGTH);
    assertThat(live.get("sha256")).isEqualTo(LastGoodPartner.streamSha256());
    assertThat(live.number("reads")).isGreaterThan(STREAM_LENGTH / 4096 / 2);
    if (!buffersWholeBody(c)) {
      // the first part reached the application while the partner still held the rest back
      assertThat(live.number("lastByteMs") - live.number("firstByteMs"))
          .as(live.raw())
          .isGreaterThanOrEqualTo(STREAM_PAUSE_MS - 300);
    }

    int receivedWhenOpen = open(c, partner);

    Reply kept = get(c, partner, "/stream", "&buffer=1000");
    assertThat(catalogue.get(c).received()).isEqualTo(receivedWhenOpen);
    if (c.equals("jdk")) {
      assertThat(kept.get("status")).as(kept.raw()).isEqualTo("503");
      assertThat(kept.get("body")).isEqualTo("static");
      return;
    }
    assertThat(kept.get("status")).as(kept.raw()).isEqualTo("200");
    assertThat(kept.get("Levee-Fallback")).matches("last-good; age=\\d+");
    assertThat(kept.get("Transfer-Encoding")).isEmpty();
    assertThat(kept.get("Content-Length")).isEqualTo(Integer.toString(STREAM_LENGTH));
    assertThat(kept.number("length")).isEqualTo(STREAM_LENGTH);
    assertThat(kept.get("sha256")).isEqualTo(LastGoodPartner.streamSha256());
  }

  /**
   * Whether the client asks for gzip by default and decodes it for the application: the async
   * client does from 5.6 on ({@code ContentCompressionAsyncExec}), not before.
   */
  private static boolean decompresses(String c) {
    return c.equals("hc4") || c.equals("hc5") || c.equals("hc5async") || c.equals("okhttp");
  }

  /**
   * Whether the client hands the application a body it already read whole ({@code
   * SimpleHttpResponse} of the async client): what the application then reads of it changes
   * nothing, so a body it reads only in part is kept, and nothing streams. That client also calls
   * the caller's {@code FutureCallback}, for a live answer and a fallback alike.
   */
  private static boolean buffersWholeBody(String c) {
    return c.equals("hc5async");
  }

  /** Fails the partner until the breaker opens; the requests it had received by then. */
  private int open(String c, LastGoodPartner partner) {
    partner.failing = true;
    for (int i = 0; i < 30; i++) {
      Reply r = get(c, partner, "/other", "&text=1");
      if ("static".equals(r.get("body"))) {
        return partner.received();
      }
      assertThat(r.get("status")).as(r.raw()).isEqualTo("500");
    }
    throw new AssertionError("the breaker did not open");
  }

  private Reply get(String c, LastGoodPartner partner, String path, String extra) {
    String url = AppClient.encode(partner.url(path));
    return Reply.parse(client.get("/get?client=" + c + "&url=" + url + extra).body());
  }
}
