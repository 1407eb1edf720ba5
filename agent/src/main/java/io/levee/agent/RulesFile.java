package io.levee.agent;

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
final class RulesFile {
  private RulesFile() {}

  static RuleSet loadAtStart(String rules, AgentLog log) {
    if (rules == null || rules.trim().isEmpty()) {
      log.info("no rules file given (rules=FILE): protecting nothing");
      return RuleSet.EMPTY;
    }
    Path path;
    try {
      path = Paths.get(rules.trim());
    } catch (InvalidPathException e) {
      log.error("rules file name '" + rules + "' is not a path (" + e.getMessage() + "): protecting nothing");
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
      log.error("rules file " + path + " has " + n + (n == 1 ? " error" : " errors") + ": protecting nothing");
      return RuleSet.EMPTY;
    }
    return result.rules();
  }
}
