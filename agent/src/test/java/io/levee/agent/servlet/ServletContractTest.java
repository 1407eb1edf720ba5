package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.RecordingDispatcher.Outcome;
import io.levee.agent.testing.TestAgent;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every container must show, javax or jakarta. A subclass deploys, under {@code /app}, a
 * counting filter on {@code /*} and the servlets {@code /hello} (200 "hello"), {@code /forward}
 * (forwards to /hello), {@code /async} (completes with 202 on another thread), {@code /fail}
 * (throws) and {@code /refused} (makes a statement; if refused, {@code ?then=throw} throws, {@code
 * ?then=error} throws an Error, {@code ?then=status} answers 500, {@code ?then=commit} answers 500
 * and commits it, {@code ?then=send-error} sends error 500, anything else 200), counting runs in
 * {@link #filterRuns} and {@link #servletRuns}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServletContractTest {
  static final AtomicInteger filterRuns = new AtomicInteger();
  static final AtomicInteger servletRuns = new AtomicInteger();

  private final HttpClient client = HttpClient.newHttpClient();
  private RecordingDispatcher dispatcher;

  /** Starts the container with the endpoints above and returns its port. */
  abstract int start() throws Exception;

  abstract void stop() throws Exception;

  private int port;

  @BeforeAll
  void startContainer() throws Exception {
    TestAgent.install(new ServletIntegration());
    port = start();
  }

  @AfterAll
  void stopContainer() throws Exception {
    stop();
  }

  @BeforeEach
  void installDispatcher() {
    filterRuns.set(0);
    servletRuns.set(0);
    dispatcher = new RecordingDispatcher();
    Levee.install(dispatcher);
  }

  @AfterEach
  void uninstallDispatcher() {
    Levee.install(null);
    assertThat(TestAgent.errors()).isEmpty();
  }

  @Test
  void decidesOncePerRequestThroughFilterAndServlet() throws Exception {
    HttpResponse<String> response = get("/app/hello?tenant=a");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("hello");
    assertThat(filterRuns).hasValue(1);
    assertThat(servletRuns).hasValue(1);
    assertThat(servletDecisions()).containsExactly("GET /app/hello");
    assertThat(awaitOutcomes(1)).extracting(Outcome::status).containsExactly(200);
  }

  @Test
  void doesNotDecideAForwardAgain() throws Exception {
    HttpResponse<String> response = get("/app/forward");

    assertThat(response.body()).isEqualTo("hello");
    assertThat(servletRuns).hasValue(2);
    assertThat(servletDecisions()).containsExactly("GET /app/forward");
    assertThat(awaitOutcomes(1)).extracting(Outcome::status).containsExactly(200);
  }

  @Test
  void reportsAnAsyncRequestOnceWhenItCompletes() throws Exception {
    HttpResponse<String> response = get("/app/async");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(servletDecisions()).containsExactly("GET /app/async");
    assertThat(awaitOutcomes(1)).extracting(Outcome::status).containsExactly(202);
    assertThat(outcomesAfterAMarkerRequest()).containsExactly(202, 200);
  }

  @Test
  void answersABlockedRequestWithoutRunningTheApplication() throws Exception {
    dispatcher.blockWith(
        RecordingDispatcher.blocked(429, 3, "busy, retry later", "X-Levee", "checkout"));

    HttpResponse<String> response = get("/app/hello");

    assertThat(response.statusCode()).isEqualTo(429);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("3");
    assertThat(response.headers().firstValue("X-Levee")).hasValue("checkout");
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(
            type ->
                assertThat(type.replace(" ", "").toLowerCase())
                    .isEqualTo("text/plain;charset=utf-8"));
    assertThat(response.body()).isEqualTo("busy, retry later");
    assertThat(filterRuns).hasValue(0);
    assertThat(servletRuns).hasValue(0);
    dispatcher.blockWith(null);
    assertThat(outcomesAfterAMarkerRequest()).as("only the marker's").containsExactly(200);
  }

  @Test
  void countsAnExceptionAs500() throws Exception {
    HttpResponse<String> response = get("/app/fail");

    assertThat(response.statusCode()).isEqualTo(500);
    List<Outcome> outcomes = awaitOutcomes(1);
    assertThat(outcomes).extracting(Outcome::status).containsExactly(500);
    assertThat(outcomes.get(0).error()).hasMessage("boom");
  }

  @Test
  void answersARequestThatThrewAfterARefusedCallAsBlocked() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=throw");

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("7");
    assertThat(response.body()).isEqualTo("levee: db blocked the call (rate-limit)\n");
    assertThat(levee.asked).containsExactly(Backpressure.REFUSED);
    assertThat(awaitOne(levee.statuses)).as("reported as the application ended").isEqualTo(500);
  }

  @Test
  void answersA5xxAfterARefusedCallAsBlocked() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=status");

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("7");
    assertThat(response.body()).isEqualTo("levee: db blocked the call (rate-limit)\n");
    assertThat(awaitOne(levee.statuses)).as("reported as the application ended").isEqualTo(500);
  }

  /** The servlet API takes a response as committed once sendError was called, and so does Levee. */
  @Test
  void leavesASendErrorAlone() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=send-error");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    assertThat(levee.asked).isEmpty();
  }

  @Test
  void passesAnErrorOn() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=error");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    assertThat(levee.asked).isEmpty();
  }

  @Test
  void neverTouchesACommittedResponse() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=commit");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).isEqualTo("application error");
    assertThat(levee.asked).isEmpty();
  }

  @Test
  void leavesARequestThatCopedWithARefusalAlone() throws Exception {
    Backpressure levee = Backpressure.install(true);

    HttpResponse<String> response = get("/app/refused?then=cope");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("degraded");
    assertThat(levee.asked).isEmpty();
  }

  @Test
  void leavesAFailureWithoutARefusalAlone() throws Exception {
    Backpressure levee = Backpressure.install(true);
    get("/app/refused?then=cope"); // a refusal of an earlier request on the same thread is gone

    assertThat(get("/app/fail").statusCode()).isEqualTo(500);
    assertThat(levee.asked).isEmpty();
  }

  @Test
  void leavesEverythingAloneWithoutBackpressure() throws Exception {
    Backpressure levee = Backpressure.install(false);

    HttpResponse<String> response = get("/app/refused?then=throw");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    assertThat(levee.asked).isEmpty();
  }

  /**
   * Admits every request with a permit that watches for refusals (or not), refuses every statement
   * with {@link #REFUSED}, and answers what {@code backpressure} is asked with {@link #ANSWER}.
   */
  static final class Backpressure extends Dispatcher {
    static final Blocked REFUSED =
        new Blocked(
            "db",
            "rate-limit",
            "levee: db blocked the call (rate-limit)",
            0,
            7,
            "",
            "text/plain",
            new String[0],
            false,
            "53000");
    static final Blocked ANSWER =
        new Blocked(
            "db",
            "rate-limit",
            REFUSED.message,
            503,
            7,
            REFUSED.message + "\n",
            "text/plain; charset=utf-8",
            new String[0],
            false,
            null);

    final List<Blocked> asked = new CopyOnWriteArrayList<>();
    final List<Integer> statuses = new CopyOnWriteArrayList<>();
    private final Permit permit;

    private Backpressure(boolean watch) {
      permit = new Permit(0, 0, 0, 0, watch) {};
    }

    static Backpressure install(boolean watch) {
      Backpressure d = new Backpressure(watch);
      Levee.install(d);
      return d;
    }

    @Override
    public Object servletEnter(String method, String path, Object request, Object keys) {
      return permit;
    }

    @Override
    public Object jdbcEnter(String jdbcUrl, String sql) {
      return REFUSED;
    }

    @Override
    public Blocked backpressure(Object permit, Blocked refused) {
      asked.add(refused);
      return ANSWER;
    }

    @Override
    public void exit(Object token, long startNanos, int status, Throwable error) {
      statuses.add(status);
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private List<String> servletDecisions() {
    return dispatcher.decisions.stream()
        .filter(d -> d.kind().equals("servlet"))
        .map(d -> d.first() + " " + d.second())
        .toList();
  }

  /**
   * The statuses of every outcome once a later request to {@code /app/hello} (200) has reported: a
   * report the earlier request should not make comes from that request's own processing, which the
   * container finishes before it reads the next request from the same keep-alive connection (the
   * client reuses it), so by the time the marker's outcome is in, the earlier request has had its
   * chance to report, however slow the machine.
   */
  private List<Integer> outcomesAfterAMarkerRequest() throws Exception {
    int before = dispatcher.outcomes.size();
    assertThat(get("/app/hello").statusCode()).isEqualTo(200);
    for (int i = 0;
        i < 500 && dispatcher.outcomes.stream().noneMatch(o -> o.status() == 200);
        i++) {
      Thread.sleep(20);
    }
    assertThat(dispatcher.outcomes.size()).as("the marker reported").isGreaterThan(before);
    return dispatcher.outcomes.stream().map(Outcome::status).toList();
  }

  private static <T> T awaitOne(List<T> reports) throws InterruptedException {
    for (int i = 0; i < 250 && reports.isEmpty(); i++) {
      Thread.sleep(20);
    }
    assertThat(reports).hasSize(1);
    return reports.get(0);
  }

  /** The container may report after the client has read the response; wait for it, boundedly. */
  private List<Outcome> awaitOutcomes(int count) throws InterruptedException {
    for (int i = 0; i < 250 && dispatcher.outcomes.size() < count; i++) {
      Thread.sleep(20);
    }
    return dispatcher.outcomes;
  }

  static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
