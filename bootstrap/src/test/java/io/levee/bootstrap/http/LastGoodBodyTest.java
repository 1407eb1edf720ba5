package io.levee.bootstrap.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.levee.bootstrap.Permit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How an {@code HttpURLConnection}'s body is copied for the last good answer: the application reads
 * exactly what it would, and the copy is whole or nothing.
 */
class LastGoodBodyTest {
  private final List<byte[]> kept = new ArrayList<>();

  private LastGoodKeeper keeper(int maxBody, long expectedLength) {
    return new LastGoodKeeper(maxBody, expectedLength) {
      @Override
      public void keep(byte[] body, int length) {
        kept.add(Arrays.copyOf(body, length));
      }
    };
  }

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  private static byte[] readAll(InputStream in, int buffer) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] b = new byte[buffer];
    for (int n; (n = in.read(b)) != -1; ) {
      out.write(b, 0, n);
    }
    return out.toByteArray();
  }

  @Test
  void theApplicationReadsExactlyTheBodyAndItsEndKeepsTheCopy() throws IOException {
    byte[] body = bytes(10_000);
    InputStream tee =
        new TeeInputStream(new ByteArrayInputStream(body), new BodyTee(keeper(20_000, -1)));
    assertThat(tee.read()).isEqualTo(body[0] & 0xff);
    byte[] rest = readAll(tee, 333);
    assertThat(rest).isEqualTo(Arrays.copyOfRange(body, 1, body.length));
    assertThat(kept).hasSize(1);
    assertThat(kept.get(0)).isEqualTo(body);
    tee.close();
    assertThat(kept).hasSize(1);
  }

  @Test
  void aBodyLongerThanMaxBodyIsReadWholeButNotKept() throws IOException {
    byte[] body = bytes(5_000);
    InputStream tee =
        new TeeInputStream(new ByteArrayInputStream(body), new BodyTee(keeper(4_999, -1)));
    assertThat(readAll(tee, 1024)).isEqualTo(body);
    assertThat(kept).isEmpty();
  }

  @Test
  void aBodyClosedBeforeItsEndIsNotKeptUnlessItsAnnouncedLengthWasRead() throws IOException {
    byte[] body = bytes(100);
    InputStream early =
        new TeeInputStream(new ByteArrayInputStream(body), new BodyTee(keeper(1_000, 100)));
    early.read(new byte[60]);
    early.close();
    assertThat(kept).isEmpty();

    InputStream exact =
        new TeeInputStream(new ByteArrayInputStream(body), new BodyTee(keeper(1_000, 100)));
    byte[] all = new byte[100];
    int n = 0;
    while (n < 100) {
      n += exact.read(all, n, 100 - n);
    }
    exact.close();
    assertThat(kept).hasSize(1);
    assertThat(kept.get(0)).isEqualTo(body);
  }

  @Test
  void skippingGivesTheCopyUp() throws IOException {
    InputStream tee =
        new TeeInputStream(new ByteArrayInputStream(bytes(100)), new BodyTee(keeper(1_000, -1)));
    tee.skip(10);
    readAll(tee, 7);
    assertThat(kept).isEmpty();
  }

  @Test
  void everyGetInputStreamOfOneConnectionGetsTheSameCopyingStream() throws IOException {
    HttpCall call = new HttpCall(new Permit(0, 0, 0) {}, 0L, false, "http://p/a");
    InputStream live = new ByteArrayInputStream(bytes(50));
    assertThat(call.offered(live)).isNull();
    InputStream first = call.offer(live, keeper(1_000, 50));
    assertThat(first).isInstanceOf(TeeInputStream.class);
    assertThat(call.offered(live)).isSameAs(first);
    assertThat(call.offer(live, keeper(1_000, 50))).isSameAs(first);
    InputStream other = new ByteArrayInputStream(bytes(3));
    assertThat(call.offered(other)).isSameAs(other);
    readAll(first, 8);
    assertThat(kept).hasSize(1);
  }

  @Test
  void aCopyingStreamTheApplicationDroppedIsMadeAgainAndGoesOnCopying() throws IOException {
    HttpCall call = new HttpCall(new Permit(0, 0, 0) {}, 0L, false, "http://p/a");
    byte[] body = bytes(40);
    InputStream live = new ByteArrayInputStream(body);
    InputStream first = call.offer(live, keeper(1_000, -1));
    first.read(new byte[15]);
    WeakReference<InputStream> dropped = new WeakReference<>(first);
    first = null;
    for (int i = 0; i < 50 && dropped.get() != null; i++) {
      System.gc();
    }
    assumeTrue(dropped.get() == null, "the dropped stream was collected");
    InputStream again = call.offered(live);
    assertThat(again).isInstanceOf(TeeInputStream.class);
    readAll(again, 4);
    assertThat(kept).hasSize(1);
    assertThat(kept.get(0)).isEqualTo(body);
  }

  @Test
  void aBodyNotKeptIsHandedOutAsItIs() {
    HttpCall call = new HttpCall(new Permit(0, 0, 0) {}, 0L, false, "http://p/a");
    InputStream live = new ByteArrayInputStream(bytes(5));
    assertThat(call.offer(live, null)).isSameAs(live);
    assertThat(call.offered(live)).isSameAs(live);
  }

  @Test
  void aKeeperThatFailsChangesNothingTheApplicationReadsAndTheStreamStillCloses()
      throws IOException {
    byte[] body = bytes(5_000);
    boolean[] closed = {false};
    InputStream source =
        new ByteArrayInputStream(body) {
          @Override
          public void close() {
            closed[0] = true;
          }
        };
    LastGoodKeeper failing =
        new LastGoodKeeper(10_000, body.length) {
          @Override
          public void keep(byte[] copy, int length) {
            throw new IllegalStateException("the keeper's own failure");
          }
        };
    InputStream tee = new TeeInputStream(source, new BodyTee(failing));
    assertThat(readAll(tee, 700)).isEqualTo(body);
    tee.close();
    assertThat(closed[0]).isTrue();
  }
}
