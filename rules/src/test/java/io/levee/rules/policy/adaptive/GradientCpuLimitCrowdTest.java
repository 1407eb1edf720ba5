package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.CrowdLoads.window;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.MS;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.TARGET;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.policy.adaptive.CrowdLoads.Crowd;
import io.levee.rules.policy.adaptive.CrowdLoads.ThreadBound;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GradientCpuLimit} with the CPU below target telling a bounded crowd of clients (a closed
 * loop: each waits for its answer before it sends again) from an open stream, through {@link
 * DemandProbe}.
 */
class GradientCpuLimitCrowdTest {
  private final AdaptiveSpec spec = new AdaptiveSpec(2, 200, 20, TARGET);
  private GradientCpuLimit algorithm;

  /** The limit a probe started from, set by {@link #untilAProbe}. */
  private int probedFrom;

  @BeforeEach
  void learnBaselineOfTenMillis() {
    algorithm = GradientCpuLimitTest.learnedTenMillis(spec);
  }

  @Test
  void aCrowdLargerThanTheLimitIsLetInAndStaysIn() {
    Crowd crowd = new Crowd(64, 10, 10 * MS);
    int limit = findTheCrowd(crowd);
    assertThat(limit).isGreaterThanOrEqualTo(64);
    assertThat(algorithm.lastStep())
        .isEqualTo("probe: the calls stopped at 64, a bounded crowd; limit above it");
    for (int i = 0; i < 200; i++) { // its latency is six times the baseline, and its own
      limit = algorithm.nextLimit(crowd.window(limit), limit);
      assertThat(limit).as("window %s", i).isGreaterThanOrEqualTo(64);
    }
  }

  @Test
  void anOpenStreamGetsItsLimitBackAfterEachProbeAndProbesGetRarer() {
    QueueingServer stream = new QueueingServer(10, 10 * MS, 0, 0.3);
    int limit = 40;
    List<Integer> probes = new ArrayList<>();
    List<Integer> windowsOfProbes = new ArrayList<>();
    for (int i = 0; i < 300; i++) { // 60 s
      int next = algorithm.nextLimit(held(stream, limit), limit);
      if (next > limit && algorithm.lastStep().contains("a higher limit")) {
        probes.add(next * 100 / limit);
        windowsOfProbes.add(i);
        int back = algorithm.nextLimit(held(stream, next), next);
        assertThat(back).isEqualTo(limit); // the stream filled it: one window, then back
        assertThat(algorithm.lastStep()).contains("an open stream");
        i++;
        next = back;
      }
      limit = next;
    }
    assertThat(limit).isBetween(10, 29); // as without probes: 2 x 10 workers, plus 2 sqrt(20)
    // Twice, then four times the limit, the most (in % of the limit enforced, which rounds the
    // estimate up); after 1 s, 4 s and 16 s of full windows.
    assertThat(probes).hasSize(3);
    assertThat(probes.get(0)).isBetween(190, 200);
    assertThat(probes.get(1)).isBetween(380, 400);
    assertThat(probes.get(2)).isBetween(380, 400);
    assertThat(windowsOfProbes.get(1) - windowsOfProbes.get(0)).isBetween(20, 22);
    assertThat(windowsOfProbes.get(2) - windowsOfProbes.get(1)).isBetween(80, 82);
  }

  @Test
  void anOpenStreamOnAPoolOfManyThreadsIsProbedNoHigherThanWithoutThem() {
    // Tomcat's 200 threads all ask in every window; but the stream's refusals (as many as
    // complete) could come from a crowd only a little above the limit: no probe needs to go
    // higher than four times it to find that.
    QueueingServer stream = new QueueingServer(10, 10 * MS, 0, 0.3);
    int limit = 40;
    List<Integer> probes = new ArrayList<>();
    for (int i = 0; i < 300; i++) { // 60 s
      boolean countedOn = algorithm.countsThreadsOn();
      WindowSample w = held(stream, limit).setThreads(countedOn ? 0 : 200, 0, !countedOn);
      int next = algorithm.nextLimit(w, limit);
      if (next > limit && algorithm.lastStep().contains("a higher limit")) {
        probes.add(next * 100 / limit);
      }
      limit = next;
    }
    assertThat(probes).hasSize(3);
    assertThat(probes).allSatisfy(p -> assertThat(p).isBetween(190, 400));
  }

  @Test
  void aCrowdFoundIsNotCutWhenTheCpuClimbs() {
    // Turned away, its clients would come back at once and take more of the CPU than served.
    int limit = findTheCrowd(new Crowd(64, 10, 10 * MS));
    Crowd busier = new Crowd(64, 10, 10 * MS, 0.95);
    for (int i = 0; i < 100; i++) {
      limit = algorithm.nextLimit(busier.window(limit), limit);
      assertThat(limit).as("window %s", i).isGreaterThanOrEqualTo(64);
    }
  }

  @Test
  void aStreamThatStillGrowsWhenTheProbeEndsCountsAsAStream() {
    int limit = untilAProbe();
    int before = probedFrom;
    int height = limit;
    assertThat(height).isGreaterThan(before + DemandProbe.MAX_WINDOWS);
    // A mild overload: one more call in flight each window, never reaching the raised limit.
    for (int w = 1; w < DemandProbe.MAX_WINDOWS; w++) {
      limit = algorithm.nextLimit(GradientCpuLimitTest.window(30 * MS, before + w, 0, 0.3), limit);
      assertThat(limit).isEqualTo(height);
      assertThat(algorithm.lastStep()).contains("still growing");
    }
    int last = before + DemandProbe.MAX_WINDOWS;
    limit = algorithm.nextLimit(GradientCpuLimitTest.window(30 * MS, last, 0, 0.3), limit);
    assertThat(algorithm.lastStep()).contains("an open stream");
    assertThat(limit).isEqualTo(before);
  }

  @Test
  void aStreamHeldBackByTheContainersThreadsIsNotACrowd() {
    // Twice what completes arrives; the container has 100 threads, so the calls in flight stop
    // there whatever the limit, and the rest wait in its queue, out of sight. Those turned away
    // before a probe were the stream's excess: no more often, each, than admitted calls complete.
    ThreadBound stream = new ThreadBound(100, 10, 10 * MS);
    int limit = 40;
    int heldElsewhere = 0;
    for (int i = 0; i < 300; i++) { // 60 s
      limit = algorithm.nextLimit(stream.window(limit), limit);
      assertThat(algorithm.lastStep()).as("window %s", i).doesNotContain("crowd");
      if (algorithm.lastStep().contains("held back elsewhere")) {
        heldElsewhere++;
      }
    }
    assertThat(heldElsewhere).isGreaterThanOrEqualTo(1);
    assertThat(limit).isBetween(10, 29);
  }

  @Test
  void threadsThatTakeOneCallAfterAnotherAreAStreamHeldBackByThem() {
    // 30 threads under a heavy open stream: each refuses one queued request after another, as the
    // clients of a crowd of 30 that send again at once would, so the calls alone read as that
    // crowd. What tells them apart: the same 30 threads ask, window after window.
    Crowd threads = new Crowd(30, 10, 10 * MS);
    int limit = 20;
    int heldByThreads = 0;
    boolean countedOn = false;
    for (int i = 0; i < 150; i++) { // 30 s
      WindowSample w = threads.window(limit).setThreads(countedOn ? 0 : 30, 0, !countedOn);
      limit = algorithm.nextLimit(w, limit);
      countedOn = algorithm.countsThreadsOn();
      assertThat(algorithm.lastStep()).as("window %s", i).doesNotContain("a bounded crowd");
      if (algorithm.lastStep().contains("a stream held back by the container's threads")) {
        heldByThreads++;
      }
    }
    assertThat(heldByThreads).isGreaterThanOrEqualTo(1);
    assertThat(limit).isLessThan(30);
  }

  @Test
  void aCrowdWhoseCallsComeFromEverOtherThreadsIsFound() {
    // The same 30 clients in front of Tomcat's 200 threads, whose pool hands each request to the
    // thread idle longest.
    int limit = onTomcatsPool(new Crowd(30, 10, 10 * MS), 20);
    assertThat(algorithm.lastStep()).contains("a bounded crowd");
    assertThat(limit).isGreaterThanOrEqualTo(30);
  }

  @Test
  void aCrowdThatComesBackSlowlyIsFoundWhereTheThreadsAreCounted() {
    // A load generator on the server's CPU, spinning on the refusals: each client turned away
    // comes back every 80 ms, 2.5 times a window, about 1.5 times as often as an admitted call
    // completes at a limit near 30 (50 complete a window). Tomcat's 200 threads take its calls.
    int limit = onTomcatsPool(new Crowd(64, 10, 10 * MS, 0.3, 80 * MS), 20);
    assertThat(algorithm.lastStep()).contains("the calls stopped at 64, a bounded crowd");
    assertThat(limit).isGreaterThanOrEqualTo(64);
  }

  @Test
  void aHeavyStreamHeldBackByThreadsNobodyCountsIsNotACrowd() {
    // Three times what completes arrives, in front of 60 threads, and the caller does not count
    // threads (a resource's own limit): 100 turned away a window, twice as many as complete. Cut
    // to about 20, a probe to four times that stops at the 60 threads, and the 40 calls above the
    // old limit were each turned away as often as an admitted call completed. Only the full returns
    // test tells it from a crowd.
    ThreadBound stream = new ThreadBound(60, 10, 10 * MS, 100);
    int limit = 40;
    for (int i = 0; i < 300; i++) { // 60 s
      limit = algorithm.nextLimit(stream.window(limit), limit);
      assertThat(algorithm.lastStep()).as("window %s", i).doesNotContain("crowd");
    }
    assertThat(limit).isBetween(10, 29);
  }

  @Test
  void aCrowdFarAboveALimitCutLowIsReachedByTheThreadsThatAsked() {
    // 64 clients on two workers, met by a limit of 8 (a burst taken for a stream cut it there):
    // at 8 the latency is already four times the baseline, so the limit holds near 8, and probes
    // of two and four times it would fill. Tomcat's pool, grown to 67 threads by the crowd, hands
    // each request to the thread idle longest: every window all 67 ask, and the 56 clients turned
    // away come back far more often than an admitted call completes.
    Crowd crowd = new Crowd(64, 2, 10 * MS);
    int limit = 8;
    boolean countedOn = false;
    int higher = 0;
    for (int i = 0; i < 50 && !algorithm.lastStep().contains("crowd"); i++) { // 10 s
      WindowSample w = crowd.window(limit).setThreads(countedOn ? 0 : 67, 0, !countedOn);
      limit = algorithm.nextLimit(w, limit);
      countedOn = algorithm.countsThreadsOn();
      higher += algorithm.lastStep().contains("a higher limit") ? 1 : 0;
    }
    assertThat(algorithm.lastStep()).contains("the calls stopped at 64, a bounded crowd");
    assertThat(higher).isEqualTo(1); // as high as the threads, on the first probe
    assertThat(limit).isGreaterThanOrEqualTo(64);
  }

  @Test
  void aCrowdHeldInTheTopOfTheLimitKeptForOtherPagesIsFound() {
    // 64 clients over four pages, the most asked one holding more than its share: it is turned
    // away in the top eighth of the limit, kept for the others. At 22 ms, 2.2 times the baseline,
    // the 61 calls below that eighth make a busy (with its headroom) of 70: the limit holds there,
    // above the calls, never full, while the crowd is turned away.
    int limit = 70;
    int probes = 0;
    for (int i = 0; i < 150 && !algorithm.lastStep().contains("crowd"); i++) { // 30 s
      int kept = limit - limit / 8;
      WindowSample w =
          limit <= 64
              ? window(limit, 64, 22 * MS, 0.3, 200)
              : kept < 64
                  ? window(kept, 64, 22 * MS, 0.3, 200).setRefusedBelowLimit(200)
                  : window(64, 64, 22 * MS, 0.3, 0);
      limit = algorithm.nextLimit(w, limit);
      probes += algorithm.lastStep().contains("a higher limit") ? 1 : 0;
    }
    assertThat(algorithm.lastStep()).contains("the calls stopped at 64, a bounded crowd");
    assertThat(probes).isEqualTo(1);
    assertThat(limit - limit / 8).isGreaterThanOrEqualTo(64);
  }

  @Test
  void aProbeWhoseCallsAreHeldInTheTopKeptForOtherPagesGoesAboveThem() {
    // The same crowd from a lower limit: twice the limit still keeps its top eighth below the
    // crowd, where the most asked page is turned away while the others leave it part empty. The
    // calls stop there, short of the crowd; taken for its size, the limit would sit below the crowd
    // and turn it away until the next probe.
    int limit = 26;
    for (int i = 0; i < 50 && !algorithm.lastStep().contains("crowd"); i++) {
      int inFlight = Math.min(64, limit - limit / 8 + 2);
      WindowSample w = window(inFlight, 64, 22 * MS, 0.3, inFlight < 64 ? 200 : 0);
      limit = algorithm.nextLimit(inFlight < 64 ? w.setRefusedBelowLimit(200) : w, limit);
    }
    assertThat(algorithm.lastStep()).contains("the calls stopped at 64, a bounded crowd");
    assertThat(limit - limit / 8).isGreaterThanOrEqualTo(64);
  }

  @Test
  void aStreamHeldInTheTopKeptForOtherPagesStillGoesBack() {
    // An open stream whose most asked page is turned away in the top eighth of any limit: each
    // raise above it is taken up at once, up to the highest a probe may go, where the refusals
    // before it are too few for a crowd that large.
    int limit = 26;
    int highest = 0;
    for (int i = 0; i < 50 && !algorithm.lastStep().contains("limit back"); i++) {
      int inFlight = limit - limit / 8 + 2;
      WindowSample w = window(inFlight, 20, 10 * MS, 0.3, 200).setRefusedBelowLimit(200);
      limit = algorithm.nextLimit(w, limit);
      highest = Math.max(highest, limit);
    }
    assertThat(algorithm.lastStep()).contains("limit back").doesNotContain("a bounded crowd");
    assertThat(limit).isLessThanOrEqualTo(26);
    assertThat(highest).isLessThanOrEqualTo(4 * 26); // the highest probe from where it began
  }

  @Test
  void theFirstWindowAfterAPauseIsNotASecondOfFullWindows() {
    // The window that spans 40 s of pause holds the 50 calls that ended it, one turned away.
    WindowSample pause = window(20, 10, 10 * MS, 0.3, 1).setWindowNanos(40_000 * MS);
    int limit = algorithm.nextLimit(pause, 20);
    assertThat(algorithm.lastStep()).doesNotContain("a higher limit");
    assertThat(limit).isLessThanOrEqualTo(20);
  }

  @Test
  void fullWindowsBeforeAWindowThatTurnedNoneAwayDoNotCountTowardAProbe() {
    Crowd crowd = new Crowd(64, 10, 10 * MS);
    int limit = 20;
    for (int i = 0; i < 4; i++) { // 0.8 s of full windows that turned calls away
      limit = algorithm.nextLimit(crowd.window(limit), limit);
    }
    limit = algorithm.nextLimit(window(limit, 10, 10 * MS, 0.3, 0), limit); // none turned away
    limit = algorithm.nextLimit(crowd.window(limit), limit);
    assertThat(algorithm.lastStep()).doesNotContain("a higher limit");
  }

  @Test
  void aCrowdThatBecomesAStreamIsCutAgain() {
    int limit = findTheCrowd(new Crowd(64, 10, 10 * MS));
    assertThat(limit).isGreaterThanOrEqualTo(64);
    QueueingServer stream = new QueueingServer(10, 10 * MS, 0, 0.3);
    for (int i = 0; i < 10; i++) {
      limit = algorithm.nextLimit(held(stream, limit), limit);
    }
    assertThat(limit).isLessThan(40);
  }

  @Test
  void aCrowdThatMostlyLeftIsForgotten() {
    int limit = findTheCrowd(new Crowd(64, 10, 10 * MS));
    assertThat(algorithm.lastStep()).contains("a bounded crowd");
    // 20 clients, then a stream: the stream is not let in as far as the 64 clients were.
    Crowd fewer = new Crowd(20, 10, 10 * MS);
    limit = algorithm.nextLimit(fewer.window(limit), limit);
    QueueingServer stream = new QueueingServer(10, 10 * MS, 0, 0.3);
    for (int i = 0; i < 10; i++) {
      limit = algorithm.nextLimit(held(stream, limit), limit);
    }
    assertThat(limit).isLessThan(40);
  }

  @Test
  void callsThatFallAwayDuringAProbeAreNoCrowd() {
    int limit = untilAProbe();
    int before = probedFrom;
    limit = algorithm.nextLimit(GradientCpuLimitTest.window(30 * MS, before + 5, 0, 0.3), limit);
    limit = algorithm.nextLimit(GradientCpuLimitTest.window(30 * MS, before / 2, 0, 0.3), limit);
    assertThat(algorithm.lastStep()).contains("the load changed");
    assertThat(limit).isEqualTo(before);
  }

  @Test
  void aCrowdWithTheCpuAboveTargetIsNotProbed() {
    Crowd crowd = new Crowd(64, 10, 10 * MS, 0.95);
    int limit = 30;
    for (int i = 0; i < 150; i++) {
      limit = algorithm.nextLimit(crowd.window(limit), limit);
      assertThat(algorithm.lastStep()).doesNotContain("probe: a higher limit");
    }
    assertThat(limit).isLessThan(64);
  }

  /**
   * Windows of {@code crowd} from {@code limit} until a probe finds it (30 s at most), its calls
   * taken by Tomcat's 200 threads, whose pool hands each request to the thread idle longest: the
   * clients' own threads and 50 more a window that had not asked before, until all 200 have.
   * Returns the limit then.
   */
  private int onTomcatsPool(Crowd crowd, int limit) {
    int seen = 0;
    boolean countedOn = false;
    for (int i = 0; i < 150 && !algorithm.lastStep().contains("crowd"); i++) {
      int fresh = countedOn ? Math.min(50, 200 - seen) : crowd.clients + 50;
      seen = countedOn ? seen + fresh : fresh;
      limit = algorithm.nextLimit(crowd.window(limit).setThreads(fresh, 0, !countedOn), limit);
      countedOn = algorithm.countsThreadsOn();
    }
    return limit;
  }

  /** Windows of 64 clients until a probe finds them, from a limit of 30; the limit then. */
  private int findTheCrowd(Crowd crowd) {
    int limit = 30;
    for (int i = 0; i < 150 && !algorithm.lastStep().contains("crowd"); i++) { // 30 s
      limit = algorithm.nextLimit(crowd.window(limit), limit);
    }
    assertThat(algorithm.lastStep()).contains("a bounded crowd");
    return limit;
  }

  /**
   * A held-back stream's windows from a limit of 40 until a probe starts; returns the probe's
   * limit, and leaves the limit before it in {@link #probedFrom}.
   */
  private int untilAProbe() {
    QueueingServer stream = new QueueingServer(10, 10 * MS, 0, 0.3);
    int limit = 40;
    int before = limit;
    for (int i = 0; i < 50 && !algorithm.lastStep().contains("a higher limit"); i++) {
      before = limit;
      limit = algorithm.nextLimit(held(stream, limit), limit);
    }
    assertThat(algorithm.lastStep()).contains("a higher limit");
    probedFrom = before;
    return limit;
  }

  /** A window of {@code server}, which turned away 50 calls: an open stream it held back. */
  private static WindowSample held(QueueingServer server, int limit) {
    return server.window(limit).setRefused(50);
  }
}
