package io.levee.it.lifecycle;

import io.levee.it.support.AppClient;
import io.levee.it.support.Reply;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A steady stream of requests the test makes throughout (one every 20 ms, alternating a plain page
 * and an outbound call that no rule limits), recording every one that fails. The lifecycle must
 * never be the reason a request fails: attach, reload and detach happen under this traffic.
 */
final class SteadyTraffic implements AutoCloseable {
  private final AppClient client;
  private final String outboundUrl;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final Thread thread;
  private volatile boolean running = true;

  SteadyTraffic(AppClient client, String outboundUrl) {
    this.client = client;
    this.outboundUrl = outboundUrl;
    this.thread = new Thread(this::loop, "steady-traffic");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      int n = sent.incrementAndGet();
      try {
        if (n % 2 == 0) {
          HttpResponse<String> r = client.get("/steady/" + n);
          if (r.statusCode() != 200) {
            failures.add("/steady/" + n + ": " + r.statusCode() + " " + r.body());
          }
        } else {
          HttpResponse<String> r = client.get("/http?url=" + AppClient.encode(outboundUrl));
          Reply reply = Reply.parse(r.body());
          if (r.statusCode() != 200 || !"200".equals(reply.get("status"))) {
            failures.add("outbound " + n + ": " + r.statusCode() + " " + reply);
          }
        }
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        failures.add("request " + n + ": " + e);
      }
    }
  }

  int sent() {
    return sent.get();
  }

  List<String> failures() {
    return failures;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
