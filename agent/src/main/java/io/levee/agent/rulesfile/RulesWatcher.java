package io.levee.agent.rulesfile;

import io.levee.agent.args.Reply;
import io.levee.agent.log.AgentLog;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Hot reload (SPEC §2 {@code settings.reload}): the daemon thread {@code levee-reload} looks at the
 * rules file every {@code reload} of the rules in force. A change of modification time, size or
 * content (a same-size edit within the file system's time granularity changes only the content) is
 * loaded and validated as a whole; a valid file replaces the rules in one swap ({@link
 * io.levee.rules.engine.Engine#apply} keeps the state of unchanged resources), an invalid one is
 * rejected with its errors in the log and the rules in force stay. A file that is missing keeps the
 * rules in force and is loaded once it appears. {@link #reload} is the same check on demand, and
 * may switch to another file.
 *
 * <p>Concurrency: every check, forced or periodic, runs under {@code this}, which guards {@code
 * path}, {@code seen} and {@code stopped}; the thread waits on {@code this} between checks, so a
 * forced reload that changes the interval, and {@link #stop}, wake it.
 */
public final class RulesWatcher implements Runnable {
  private final AgentLog log;
  private RulesTarget agent;
  private Path path;
  private Fingerprint seen;
  private boolean stopped;
  private Thread thread;

  /**
   * Takes the file's fingerprint now, before the start loads it, so no edit in between is missed.
   */
  public RulesWatcher(String file, AgentLog log) {
    this.log = log;
    this.path = toPath(file);
    this.seen = Fingerprint.of(path);
  }

  public synchronized void start(RulesTarget running) {
    bind(running);
    Thread t = new Thread(this, "levee-reload");
    t.setDaemon(true);
    t.setContextClassLoader(null);
    thread = t;
    t.start();
  }

  /** The agent whose rules this file feeds; {@link #start} does it, tests do it alone. */
  synchronized void bind(RulesTarget running) {
    this.agent = running;
  }

  public synchronized void stop() {
    stopped = true;
    notifyAll();
    if (thread != null) {
      thread.interrupt();
      thread = null;
    }
  }

  /** The file being watched, or null. */
  public synchronized Path path() {
    return path;
  }

  @Override
  public void run() {
    try {
      synchronized (this) {
        while (!stopped) {
          long millis = agent.rules().settings.reloadNanos / 1_000_000L;
          wait(millis > 0 ? millis : 0);
          if (!stopped && millis > 0) {
            check();
          }
        }
      }
    } catch (InterruptedException stopping) {
      // stop() ends the thread.
    }
  }

  /** One periodic look at the file; the thread calls it under {@code this}. */
  synchronized void check() {
    if (path == null) {
      return;
    }
    Fingerprint now = Fingerprint.of(path);
    if (now.equals(seen)) {
      return;
    }
    Fingerprint before = seen;
    seen = now;
    if (!now.exists) {
      if (before.exists) {
        log.warn("rules file " + path + " is gone, keeping the rules in force");
      }
      return;
    }
    load(path, new Reply(null));
  }

  /**
   * Re-reads the rules file now, or switches to {@code file} when it is not null: the switch holds
   * only if the new file is valid.
   */
  public synchronized void reload(String file, Reply reply) {
    Path target = file == null ? path : toPath(file);
    if (target == null) {
      reply.fail(
          file == null
              ? "no rules file in use: give one with --rules FILE"
              : "'" + file + "' is not a path");
      return;
    }
    if (!Files.isRegularFile(target)) {
      reply.fail("rules file " + target + " not found, keeping the rules in force");
      return;
    }
    Fingerprint now = Fingerprint.of(target);
    if (load(target, reply)) {
      path = target;
      seen = now;
      notifyAll();
    } else if (target.equals(path)) {
      seen = now;
    }
  }

  private boolean load(Path file, Reply reply) {
    LoadResult result = RulesLoader.load(file);
    List<RuleError> errors =
        result.ok() ? agent.check(file.toString(), result.rules()) : result.errors();
    if (!errors.isEmpty()) {
      String head =
          "rules file " + file + " rejected, keeping the rules in force: " + count(errors);
      log.warn(head);
      reply.fail(head);
      for (RuleError error : errors) {
        log.warn("  " + error);
        reply.line("  " + error);
      }
      agent.rejected(file.toString(), errors);
      return false;
    }
    RuleSet rules = result.rules();
    agent.apply(rules);
    // The rules listeners (metrics) log each applied reload; the rejected ones are logged here,
    // with every error, before anything else happens.
    reply.line("rules reloaded from " + file + ": " + rules.describe());
    return true;
  }

  private static String count(List<RuleError> errors) {
    return errors.size() + (errors.size() == 1 ? " error" : " errors");
  }

  private static Path toPath(String file) {
    if (file == null || file.trim().isEmpty()) {
      return null;
    }
    try {
      return Paths.get(file.trim()).toAbsolutePath();
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /** What a change is detected by: existence, modification time, size and a CRC of the content. */
  static final class Fingerprint {
    private static final Fingerprint ABSENT = new Fingerprint(false, 0, 0, 0);
    final boolean exists;
    private final long modified;
    private final long size;
    private final long crc;

    private Fingerprint(boolean exists, long modified, long size, long crc) {
      this.exists = exists;
      this.modified = modified;
      this.size = size;
      this.crc = crc;
    }

    static Fingerprint of(Path file) {
      if (file == null || !Files.isRegularFile(file)) {
        return ABSENT;
      }
      try {
        long modified = Files.getLastModifiedTime(file).toMillis();
        long size = Files.size(file);
        return new Fingerprint(true, modified, size, crc(file));
      } catch (IOException e) {
        return ABSENT;
      }
    }

    private static long crc(Path file) throws IOException {
      CRC32 crc = new CRC32();
      InputStream in = Files.newInputStream(file);
      try {
        byte[] buffer = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) > 0 && total <= RulesLoader.MAX_BYTES) {
          crc.update(buffer, 0, n);
          total += n;
        }
      } finally {
        in.close();
      }
      return crc.getValue();
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Fingerprint)) {
        return false;
      }
      Fingerprint f = (Fingerprint) o;
      return exists == f.exists && modified == f.modified && size == f.size && crc == f.crc;
    }

    @Override
    public int hashCode() {
      return (int) (modified ^ size ^ crc);
    }
  }
}
