package io.levee.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.lifecycle.Cli;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Levee beside the OpenTelemetry Java agent (the real one, from Maven Central) on a forked Tomcat
 * application: with OpenTelemetry's {@code -javaagent} after Levee's, before it, and with Levee
 * attached at run time, a blocked request's server span and a blocked {@code HttpURLConnection}
 * call's client span carry {@code levee.resource}, {@code levee.decision} and {@code levee.reason}
 * (SPEC §5.5), an admitted request's span says {@code admitted}, and every answer the application
 * gives is the one it gives with Levee alone. The spans are read from OpenTelemetry's {@code
 * logging} exporter, which writes each one to the application's stderr as it ends.
 */
class OpenTelemetryIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: checkout
          match: { servlet: { paths: ["/shop/**"] } }
          rate-limit: { rate: 1/m, burst: 2 }
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/m, burst: 1 }
      """;
  private static final List<String> OTEL =
      List.of(
          "-Dotel.traces.exporter=logging",
          "-Dotel.metrics.exporter=none",
          "-Dotel.logs.exporter=none",
          "-Dotel.service.name=levee-it");

  private static final Pattern SPAN_IDS = Pattern.compile("' : ([0-9a-f]{32}) [0-9a-f]{16} ");

  private static LocalHttpServer partner;
  private static Path rules;
  private static Path otelAgent;
  private static List<String> aloneAnswers;

  @BeforeAll
  static void levee() throws Exception {
    otelAgent = Paths.get(System.getProperty("levee.otel.agent"));
    assertThat(otelAgent).as("OpenTelemetry agent copied by the build").exists();
    partner = LocalHttpServer.start().ok();
    rules = RulesFile.write("opentelemetry", RULES.formatted(partner.port()));
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .agent("rules=" + rules.toAbsolutePath())
            .name("otel-levee-alone")
            .start()) {
      aloneAnswers = answers(app);
    }
    assertThat(aloneAnswers)
        .as("Levee alone blocks the third request and the second partner call")
        .containsSubsequence("200", "200", "429")
        .anyMatch(a -> a.contains("message=levee: partner blocked the call (rate-limit)"));
  }

  @Test
  void openTelemetryGivenAfterLevee() throws Exception {
    try (ForkedApp app =
        withOtel(ForkedApp.of(TomcatApp.class).agent("rules=" + rules.toAbsolutePath()))
            .name("otel-after")
            .start()) {
      assertSpansAndAnswers(app);
    }
  }

  @Test
  void openTelemetryGivenBeforeLevee() throws Exception {
    ForkedApp.Builder b = ForkedApp.of(TomcatApp.class);
    b.jvmOption("-javaagent:" + otelAgent);
    b.jvmOption("-javaagent:" + TestPaths.agentJar() + "=rules=" + rules.toAbsolutePath());
    try (ForkedApp app = otelOptions(b).name("otel-before").start()) {
      assertSpansAndAnswers(app);
    }
  }

  @Test
  void leveeAttachedToAJvmWithOpenTelemetry() throws Exception {
    try (ForkedApp app = withOtel(ForkedApp.of(TomcatApp.class)).name("otel-attach").start()) {
      Cli.Result attach = Cli.run(Jdk.current(), "attach", app.pid(), "--rules", rules.toString());
      assertThat(attach.exit()).as(attach.toString()).isZero();
      assertSpansAndAnswers(app);
    }
  }

  private static ForkedApp.Builder withOtel(ForkedApp.Builder b) {
    return otelOptions(b.jvmOption("-javaagent:" + otelAgent));
  }

  private static ForkedApp.Builder otelOptions(ForkedApp.Builder b) {
    for (String option : OTEL) {
      b.jvmOption(option);
    }
    return b;
  }

  private static void assertSpansAndAnswers(ForkedApp app) throws Exception {
    assertThat(answers(app)).isEqualTo(aloneAnswers);
    List<String> spans = spans(app, 6);
    assertThat(spans)
        .as("the blocked request's server span")
        .anyMatch(
            s ->
                s.contains(" SERVER ")
                    && s.contains("http.response.status_code=429")
                    && s.contains("levee.resource=checkout")
                    && s.contains("levee.decision=blocked")
                    && s.contains("levee.reason=rate-limit"));
    assertThat(spans)
        .as("an admitted request's server span")
        .anyMatch(
            s ->
                s.contains(" SERVER ")
                    && s.contains("http.response.status_code=200")
                    && s.contains("levee.resource=checkout")
                    && s.contains("levee.decision=admitted"));
    String client =
        spans.stream()
            .filter(
                s ->
                    s.contains(" CLIENT ")
                        && s.contains("levee.resource=partner")
                        && s.contains("levee.decision=blocked")
                        && s.contains("levee.reason=rate-limit"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no blocked client span in " + spans));
    String trace = traceId(client);
    assertThat(spans)
        .as("the blocked call's span is in the trace of the request that made it")
        .anyMatch(
            s ->
                s.contains(" SERVER ") && s.contains("url.path=/http") && trace.equals(traceId(s)));
    assertThat(String.join("\n", app.leveeLines())).contains("OpenTelemetry agent found");
  }

  /**
   * Three checkout requests (the third over the limit), two partner calls (the second over it) and
   * a path no rule names; each answer as status and body, less the body's timings.
   */
  private static List<String> answers(ForkedApp app) {
    AppClient client = new AppClient(app);
    String url = AppClient.encode(partner.url("/charge"));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      out.add(String.valueOf(client.get("/shop/items").statusCode()));
    }
    for (int i = 0; i < 2; i++) {
      out.add(answer(client.get("/http?url=" + url), OpenTelemetryIT::withoutTimings));
    }
    out.add(answer(client.get("/plain"), UnaryOperator.identity()));
    return out;
  }

  private static String answer(HttpResponse<String> r, UnaryOperator<String> body) {
    return r.statusCode() + " " + body.apply(r.body());
  }

  private static String withoutTimings(String body) {
    return body.lines().filter(l -> !l.startsWith("elapsedMs=")).collect(Collectors.joining("\n"));
  }

  /** The trace id of an exporter line: {@code 'NAME' : TRACE SPAN KIND ...}. */
  private static String traceId(String span) {
    Matcher m = SPAN_IDS.matcher(span);
    return m.find() ? m.group(1) : "none";
  }

  /** The spans the logging exporter wrote, waiting until at least {@code atLeast} are there. */
  private static List<String> spans(ForkedApp app, int atLeast) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    List<String> spans;
    do {
      spans = app.stderr().lines().filter(l -> l.contains("AttributesMap{")).toList();
      if (spans.size() >= atLeast) {
        return spans;
      }
      ForkedApp.sleep(100);
    } while (System.nanoTime() < deadline);
    Files.writeString(Paths.get("target/otel-" + app.pid() + ".stderr"), app.stderr());
    return spans;
  }
}
