package io.levee.rules.lastgood;

import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.rules.model.LastGoodSpec;
import io.levee.rules.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The last good answers of one http resource ({@code on-block.fallback.last-good}, SPEC §5.1): per
 * URL, the last 2xx answer to a {@code GET} whose body was read to its end, at most {@code
 * max-entries} of them, the least recently used going first, each body at most {@code max-body}
 * bytes. While the resource blocks, {@link #answer} gives a {@code GET} the answer of its URL if it
 * is at most {@code last-good} old, marked {@code Levee-Fallback: last-good; age=SECONDS}. So the
 * memory it holds is bounded by max-entries times max-body, plus the headers.
 *
 * <p>Only what its headers allow is kept ({@link KeptHeaders}); an answer marked {@code no-store}
 * or {@code private} also drops the one kept before for its URL, since that is no longer the last
 * answer, and its server has just said not to keep it. The URL is the full one, query included.
 *
 * <p>Concurrency: the map is guarded by {@code this}; admitted calls reach it only once their body
 * ended ({@link #keeper}'s keeper), blocked ones once per answer ({@link #answer}), and never when
 * the resource keeps no last good answer, so the lock is off the path of every other call. An entry
 * is immutable, and its body is never handed out: {@link HttpAnswer#body()} copies.
 */
public final class LastGoodCache {
  /** The header that marks an answer as the last good one. */
  public static final String MARK = "Levee-Fallback";

  /** For a kept answer that had no {@code Content-Type}, as every answer Levee gives has one. */
  private static final String UNKNOWN_TYPE = "application/octet-stream";

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final LastGoodSpec spec;
  private final Clock clock;
  private final Map<String, Kept> entries;
  private final LongAdder served = new LongAdder();
  private boolean closed;

  public LastGoodCache(final LastGoodSpec spec, Clock clock) {
    this.spec = spec;
    this.clock = clock;
    this.entries =
        new LinkedHashMap<String, Kept>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
            return size() > spec.maxEntries;
          }
        };
  }

  public LastGoodSpec spec() {
    return spec;
  }

  /**
   * Where the body of an admitted {@code GET} to {@code url} goes to be kept, or null when this
   * answer is not to be kept: not 2xx, {@code no-store} or {@code private}, or announced longer
   * than {@code max-body}. {@code headers}: the answer's, name, value, name, value...
   */
  public LastGoodKeeper keeper(String url, int status, String[] headers) {
    if (url == null || status < 200 || status > 299) {
      return null;
    }
    String[] h = headers == null ? new String[0] : headers;
    if (KeptHeaders.forbidKeeping(h)) {
      remove(url);
      return null;
    }
    long length = KeptHeaders.contentLength(h);
    if (length > spec.maxBody) {
      return null;
    }
    return new Keeper(url, status, KeptHeaders.kept(h), length);
  }

  /** The answer for a blocked {@code GET} to {@code url}: its last good one, or null. */
  public HttpAnswer answer(String url) {
    long now = clock.nanoTime();
    Kept kept;
    synchronized (this) {
      kept = entries.get(url);
      if (kept == null) {
        return null;
      }
      if (now - kept.storedNanos > spec.ageNanos) {
        entries.remove(url);
        return null;
      }
    }
    served.increment();
    return kept.answer(now);
  }

  /** How many answers are kept now, stale ones included until they are asked for or pushed out. */
  public synchronized int size() {
    return entries.size();
  }

  /** How many blocked calls got a last good answer. */
  public long served() {
    return served.sum();
  }

  /** Forgets every answer and keeps none from now on (the agent detached). */
  public synchronized void close() {
    closed = true;
    entries.clear();
  }

  private synchronized void put(String url, Kept kept) {
    if (!closed) {
      entries.put(url, kept);
    }
  }

  private synchronized void remove(String url) {
    entries.remove(url);
  }

  /** One kept answer: immutable. */
  private static final class Kept {
    final int status;
    final String[] headers;
    final byte[] body;
    final long storedNanos;

    Kept(int status, String[] headers, byte[] body, long storedNanos) {
      this.status = status;
      this.headers = headers;
      this.body = body;
      this.storedNanos = storedNanos;
    }

    HttpAnswer answer(long now) {
      List<String> h = new ArrayList<String>(headers.length + 6);
      h.addAll(Arrays.asList(headers));
      if (!has(headers, "Content-Type")) {
        h.add("Content-Type");
        h.add(UNKNOWN_TYPE);
      }
      h.add("Content-Length");
      h.add(Integer.toString(body.length));
      h.add(MARK);
      h.add("last-good; age=" + Math.max(0, (now - storedNanos) / SECOND));
      return new HttpAnswer(status, h.toArray(new String[0]), body);
    }

    private static boolean has(String[] headers, String name) {
      for (int i = 0; i < headers.length; i += 2) {
        if (name.equalsIgnoreCase(headers[i])) {
          return true;
        }
      }
      return false;
    }
  }

  /** Keeps one answer once its body has been read whole. */
  private final class Keeper extends LastGoodKeeper {
    private final String url;
    private final int status;
    private final String[] headers;

    Keeper(String url, int status, String[] headers, long expectedLength) {
      super(spec.maxBody, expectedLength);
      this.url = url;
      this.status = status;
      this.headers = headers;
    }

    @Override
    public void keep(byte[] body, int length) {
      if (length > maxBody || (expectedLength >= 0 && length != expectedLength)) {
        return;
      }
      put(url, new Kept(status, headers, Arrays.copyOf(body, length), clock.nanoTime()));
    }
  }
}
