package io.levee.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Reply;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The test's side of {@code methodapp.MethodApp}: runs of parallel callers, calls in a row, and the
 * classes its services really have.
 */
final class Shop {
  /** What a blocked call of a resource without {@code on-block.throw} throws. */
  static final String REJECTED = "java.util.concurrent.RejectedExecutionException";

  private final AppClient client;

  Shop(ForkedApp app) {
    this.client = new AppClient(app);
  }

  /**
   * Six callers at once on {@code targets} (comma-separated, taken in turn), the admitted ones held
   * in the method until all six have entered it or been turned away; {@code during}, if not empty,
   * is called once meanwhile.
   */
  Reply run(String targets, String... during) {
    String query = "/run?callers=6&target=" + targets;
    if (during.length > 0) {
      query += "&during=" + String.join(",", during);
    }
    Reply reply = get(query);
    assertThat(reply.get("allArrived"))
        .as("every caller entered the method or was turned away within 20 s: %s", reply)
        .isEqualTo("true");
    return reply;
  }

  /**
   * Like {@link #run}, but the admitted calls stay in flight until {@link #release}: returns once
   * all six callers have entered the method or been turned away, with the answer to come.
   */
  CompletableFuture<Reply> runHeld(String targets) throws InterruptedException {
    CompletableFuture<Reply> answer =
        CompletableFuture.supplyAsync(() -> get("/run?callers=6&release=1&target=" + targets));
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (get("/held").number("arrived") != 6) {
      assertThat(System.nanoTime()).as("six callers arrived within 20 s").isLessThan(deadline);
      assertThat(answer).as("the held run is still waiting").isNotDone();
      Thread.sleep(20);
    }
    return answer;
  }

  /** Ends the calls {@link #runHeld} holds; its answer follows. */
  Reply release(CompletableFuture<Reply> held) throws Exception {
    assertThat(get("/release").get("released")).isEqualTo("true");
    Reply reply = held.get(30, TimeUnit.SECONDS);
    assertThat(reply.get("released")).as("%s", reply).isEqualTo("true");
    return reply;
  }

  /** {@code repeat} calls one after the other. */
  Reply call(String target, String argument, int repeat) {
    return get("/call?target=" + target + "&arg=" + argument + "&repeat=" + repeat);
  }

  /** The class each service really has, by target name, and {@code late.loaded}. */
  Reply classes() {
    return get("/classes");
  }

  /**
   * Exactly two callers ran the method, and the four others got {@code exception} with the message
   * {@code levee: <resource> blocked the call (concurrency)}.
   */
  static void assertTwoOfSix(Reply run, String resource, String exception) {
    assertAdmits(run, 2, resource, exception);
  }

  /** {@code admitted} callers of six ran the method; the others were turned away by concurrency. */
  static void assertAdmits(Reply run, int admitted, String resource, String exception) {
    assertThat(run.number("ran")).as("callers that ran the method: %s", run).isEqualTo(admitted);
    assertThat(run.number("threw")).as("callers turned away: %s", run).isEqualTo(6 - admitted);
    assertThat(run.number("exception." + exception)).as("%s", run).isEqualTo(6 - admitted);
    assertThat(run.get("messages"))
        .as("the message of each")
        .isEqualTo("levee: " + resource + " blocked the call (concurrency)");
  }

  /** Every caller ran the method and none was turned away. */
  static void assertAllRan(Reply run) {
    assertThat(run.number("ran")).as("callers that ran the method: %s", run).isEqualTo(6);
    assertThat(run.number("threw")).as("%s", run).isZero();
  }

  private Reply get(String pathAndQuery) {
    HttpResponse<String> response = client.get(pathAndQuery);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Reply.parse(response.body());
  }
}
