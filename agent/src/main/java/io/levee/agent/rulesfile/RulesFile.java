package io.levee.agent.rulesfile;

import io.levee.agent.log.AgentLog;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The rules the agent starts with. Whatever goes wrong (no file given, a missing file, any error in
 * it) the answer is the empty rule set, said plainly in the log: SPEC §2 applies nothing of a file
 * with an error, and the application must start anyway.
 */
public final class RulesFile {
  private RulesFile() {}

  /** A {@code method:} key, as a block or flow mapping writes it, quoted or not. */
  private static final java.util.regex.Pattern METHOD_KEY =
      java.util.regex.Pattern.compile("(?m)(^|[\\s{,])[\"']?method[\"']?\\s*:");

  /** Larger files are taken to name methods: reading them whole is not worth it here. */
  private static final long MAX_SCANNED_BYTES = 1L << 20;

  /**
   * Whether the rules file may have a {@code method} resource, found by a look at its text without
   * the YAML parser: such resources must be known before the classes they name load, so a start
   * with them waits for the rules. True when it cannot tell (unreadable, large), false with no
   * file.
   */
  public static boolean mayNameMethods(String rules) {
    if (rules == null || rules.trim().isEmpty()) {
      return false;
    }
    try {
      Path path = Paths.get(rules.trim());
      if (!Files.exists(path)) {
        return false;
      }
      if (Files.size(path) > MAX_SCANNED_BYTES) {
        return true;
      }
      String text = new String(Files.readAllBytes(path), java.nio.charset.StandardCharsets.UTF_8);
      return METHOD_KEY.matcher(text).find();
    } catch (Exception e) {
      return true;
    }
  }

  /**
   * Starts {@link #loadAtStart} on a thread of its own, so that reading the file (and loading the
   * YAML parser, most of the time it takes) overlaps with preparing the instrumentation; {@link
   * Loading#get} waits for it.
   */
  public static Loading loadInBackground(String rules, AgentLog log) {
    Loading loading = new Loading(rules, log);
    Thread thread = new Thread(loading, "levee-rules-load");
    thread.setDaemon(true);
    loading.thread = thread;
    thread.start();
    return loading;
  }

  /** The rules of a start, being read. */
  public static final class Loading implements Runnable {
    private final String rules;
    private final AgentLog log;
    private Thread thread;
    private volatile RuleSet result;
    private volatile Throwable failure;

    private Loading(String rules, AgentLog log) {
      this.rules = rules;
      this.log = log;
    }

    @Override
    public void run() {
      try {
        result = loadAtStart(rules, log);
      } catch (Throwable t) {
        failure = t;
      }
    }

    /**
     * The rules, once read, waiting at most {@code maxMillis}; what the loading threw, thrown here,
     * and a read that takes longer (a file system that hangs) fails the same way.
     */
    public RuleSet get(long maxMillis) throws InterruptedException {
      thread.join(maxMillis);
      if (thread.isAlive()) {
        throw new IllegalStateException(
            "the rules file " + rules + " was not read within " + maxMillis / 1000 + " s");
      }
      if (failure != null) {
        throw new IllegalStateException("could not read the rules file " + rules, failure);
      }
      return result;
    }
  }

  static RuleSet loadAtStart(String rules, AgentLog log) {
    if (rules == null || rules.trim().isEmpty()) {
      log.info("no rules file given (rules=FILE): protecting nothing");
      return RuleSet.EMPTY;
    }
    Path path;
    try {
      path = Paths.get(rules.trim());
    } catch (InvalidPathException e) {
      log.error(
          "rules file name '"
              + rules
              + "' is not a path ("
              + e.getMessage()
              + "): protecting nothing");
      return RuleSet.EMPTY;
    }
    if (!Files.exists(path)) {
      log.error("rules file " + path + " not found: protecting nothing");
      return RuleSet.EMPTY;
    }
    LoadResult result = RulesLoader.load(path);
    if (!result.ok()) {
      for (RuleError error : result.errors()) {
        log.error(error.toString());
      }
      int n = result.errors().size();
      log.error(
          "rules file "
              + path
              + " has "
              + n
              + (n == 1 ? " error" : " errors")
              + ": protecting nothing");
      return RuleSet.EMPTY;
    }
    return result.rules();
  }
}
