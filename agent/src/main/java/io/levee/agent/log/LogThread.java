package io.levee.agent.log;

import java.io.Closeable;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One daemon thread, {@code levee-log}, that writes the lines other threads post and runs a task
 * once per period (the block summary). Posting never blocks and never writes: an application thread
 * that happens to move a circuit breaker only queues a line, so a slow stderr or log file cannot
 * slow its call. The queue is bounded; lines posted while it is full are dropped and counted, and
 * the count is written with the next line that gets through.
 *
 * <p>An optional start task runs on the thread before anything else: what can wait (Micrometer, the
 * endpoint) is started there rather than in premain.
 *
 * <p>Concurrency: any thread posts; only the log thread takes from the queue, runs the tasks and
 * writes to the target. {@code dropped} is atomic. Start and close are guarded by {@code this}.
 */
public final class LogThread implements EventLog, Closeable {
  static final int CAPACITY = 256;

  private final EventLog target;
  private final Runnable periodic;
  private final long periodNanos;
  private final BlockingQueue<Line> queue = new ArrayBlockingQueue<Line>(CAPACITY);
  private final AtomicLong dropped = new AtomicLong();
  private Thread thread;
  private boolean closed;

  /** {@code periodic} runs every {@code periodNanos} on the thread; it may be null. */
  public LogThread(EventLog target, Runnable periodic, long periodNanos) {
    this.target = target;
    this.periodic = periodic;
    this.periodNanos = periodNanos;
  }

  /** Starts the thread, which first runs {@code first} (may be null). */
  public synchronized void start(Runnable first) {
    if (thread != null || closed) {
      return;
    }
    Thread t = new Thread(new Loop(first), "levee-log");
    t.setDaemon(true);
    t.setContextClassLoader(null);
    thread = t;
    t.start();
  }

  @Override
  public void info(String message) {
    post(new Line(0, message));
  }

  @Override
  public void warn(String message) {
    post(new Line(1, message));
  }

  @Override
  public void error(String message) {
    post(new Line(2, message));
  }

  @Override
  public boolean debugging() {
    return target.debugging();
  }

  @Override
  public void debug(String message) {
    post(new Line(3, message));
  }

  /** Writes every queued line now, on the calling thread; the log thread calls it, tests may. */
  public void flush() {
    Line line;
    while ((line = queue.poll()) != null) {
      write(line);
    }
  }

  /** Stops the thread; lines still queued are written first. */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      closed = true;
      t = thread;
      thread = null;
    }
    if (t != null) {
      t.interrupt();
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    flush();
  }

  private void post(Line line) {
    if (!queue.offer(line)) {
      dropped.incrementAndGet();
    }
  }

  private void write(Line line) {
    long lost = dropped.getAndSet(0);
    if (lost > 0) {
      target.warn(lost + " log lines dropped: events came faster than the log could take them");
    }
    try {
      if (line.level == 0) {
        target.info(line.message);
      } else if (line.level == 1) {
        target.warn(line.message);
      } else if (line.level == 3) {
        target.debug(line.message);
      } else {
        target.error(line.message);
      }
    } catch (RuntimeException broken) {
      // The log itself failed (a closed stream): nothing better to tell it to.
    }
  }

  private static final class Line {
    final int level;
    final String message;

    Line(int level, String message) {
      this.level = level;
      this.message = message;
    }
  }

  private final class Loop implements Runnable {
    private final Runnable first;

    Loop(Runnable first) {
      this.first = first;
    }

    @Override
    public void run() {
      try {
        if (first != null) {
          runSafely(first);
        }
        long next = System.nanoTime() + periodNanos;
        while (!Thread.currentThread().isInterrupted()) {
          long wait = next - System.nanoTime();
          Line line = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : null;
          if (line != null) {
            write(line);
            flush();
          } else if (System.nanoTime() - next >= 0) {
            next = System.nanoTime() + periodNanos;
            if (periodic != null) {
              runSafely(periodic);
            }
          }
        }
      } catch (InterruptedException closing) {
        // close() interrupts the wait; it writes what is left itself.
      }
    }

    private void runSafely(Runnable task) {
      try {
        task.run();
      } catch (Throwable e) {
        target.warn("internal error in the agent's background work: " + e);
      }
    }
  }
}
