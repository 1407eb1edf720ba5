package io.levee.agent.rulesfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.args.AgentOptions;
import io.levee.agent.args.Reply;
import io.levee.agent.lifecycle.RunningAgent;
import io.levee.agent.log.AgentLog;
import io.levee.agent.method.MethodWeaving;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesWatcherTest {
  private static final String ONE = rules("one");
  private static final String TWO = rules("two");

  @TempDir Path dir;
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(new PrintStream(logged, true, StandardCharsets.UTF_8), AgentLog.Level.INFO);
  private final Engine engine = new Engine(new ManualClock(), new ManualCpu(0), Sleeper.SYSTEM);
  private final List<String> events = new ArrayList<>();
  private Path file;

  @BeforeEach
  void setUp() {
    file = dir.resolve("rules.yaml");
  }

  @Test
  void appliesAnEditedFileAndTellsListeners() throws IOException {
    RulesWatcher watcher = started(ONE);

    write(TWO);
    watcher.check();

    assertThat(engine.rules().resources.get(0).name).isEqualTo("two");
    assertThat(events).containsExactly("applied two");
  }

  @Test
  void anUnchangedFileIsNotLoadedAgain() throws IOException {
    RulesWatcher watcher = started(ONE);

    watcher.check();
    watcher.check();

    assertThat(events).isEmpty();
  }

  @Test
  void seesAnEditThatKeepsSizeAndModificationTime() throws IOException {
    RulesWatcher watcher = started(rules("aaa"));
    FileTime time = Files.getLastModifiedTime(file);

    write(rules("bbb"));
    Files.setLastModifiedTime(file, time);
    watcher.check();

    assertThat(engine.rules().resources.get(0).name).isEqualTo("bbb");
  }

  @Test
  void rejectsAnInvalidEditWithEachErrorAndKeepsTheRulesInForce() throws IOException {
    RulesWatcher watcher = started(ONE);

    write(ONE.replace("concurrency", "concurency"));
    watcher.check();
    watcher.check();

    assertThat(engine.rules().resources.get(0).name).isEqualTo("one");
    assertThat(events).containsExactly("rejected 2");
    assertThat(logText().lines())
        .contains(
            "[levee] WARN rules file " + file + " rejected, keeping the rules in force: 2 errors",
            "[levee] WARN   "
                + file
                + ":5:5: resources[0].concurency: unknown key `concurency`;"
                + " did you mean `concurrency`?");
  }

  @Test
  void loadsAFileThatAppearsAfterTheStart() throws IOException {
    RulesWatcher watcher = new RulesWatcher(file.toString(), log);
    RunningAgent agent = agent(watcher);

    watcher.check();
    assertThat(events).isEmpty();
    write(ONE);
    watcher.check();

    assertThat(agent.engine().rules().resources.get(0).name).isEqualTo("one");
  }

  @Test
  void aFileThatGoesAwayKeepsTheRulesInForce() throws IOException {
    RulesWatcher watcher = started(ONE);

    Files.delete(file);
    watcher.check();
    watcher.check();

    assertThat(engine.rules().resources.get(0).name).isEqualTo("one");
    assertThat(logText()).containsOnlyOnce("is gone, keeping the rules in force");
  }

  @Test
  void aForcedReloadSwitchesToAValidFileOnly() throws IOException {
    RulesWatcher watcher = started(ONE);
    Path other = Files.writeString(dir.resolve("other.yaml"), TWO);
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "version: 2\n");

    Reply rejected = new Reply(null);
    watcher.reload(broken.toString(), rejected);
    Reply switched = new Reply(null);
    watcher.reload(other.toString(), switched);

    assertThat(rejected.failed()).isTrue();
    assertThat(rejected.text())
        .contains("rejected, keeping the rules in force")
        .contains("broken.yaml:1:");
    assertThat(switched.failed()).isFalse();
    assertThat(switched.text()).isEqualTo("rules reloaded from " + other + ": 1 resource\n");
    assertThat(watcher.path()).isEqualTo(other);
    assertThat(engine.rules().resources.get(0).name).isEqualTo("two");
  }

  @Test
  void aForcedReloadOfAMissingFileFails() throws IOException {
    RulesWatcher watcher = started(ONE);
    Reply reply = new Reply(null);

    watcher.reload(dir.resolve("none.yaml").toString(), reply);

    assertThat(reply.failed()).isTrue();
    assertThat(reply.text()).contains("not found, keeping the rules in force");
    assertThat(watcher.path()).isEqualTo(file);
  }

  private RulesWatcher started(String yaml) throws IOException {
    write(yaml);
    RulesWatcher watcher = new RulesWatcher(file.toString(), log);
    engine.apply(RulesLoader.load(file).rules());
    agent(watcher);
    return watcher;
  }

  private RunningAgent agent(RulesWatcher watcher) {
    AgentOptions options = AgentOptions.resolve("", new Properties(), java.util.Map.of());
    RunningAgent agent =
        new RunningAgent(options, log, null, engine, watcher, new MethodWeaving(log));
    agent.onRulesApplied(
        new RunningAgent.RulesListener() {
          @Override
          public void rulesApplied(RuleSet rules) {
            events.add("applied " + rules.resources.get(0).name);
          }

          @Override
          public void rulesRejected(String source, List<RuleError> errors) {
            events.add("rejected " + errors.size());
          }
        });
    // Wires the watcher to the agent without starting its thread: the tests call check() directly.
    watcher.bind(agent);
    return agent;
  }

  private void write(String yaml) throws IOException {
    Files.writeString(file, yaml);
  }

  private String logText() {
    return logged.toString(StandardCharsets.UTF_8);
  }

  private static String rules(String name) {
    return "version: 1\nresources:\n  - name: "
        + name
        + "\n    match: { http: { urls: [\"http://a/**\"] } }\n"
        + "    concurrency: { max: 5 }\n";
  }
}
