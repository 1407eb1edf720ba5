package io.levee.it.method;

import static io.levee.it.method.Shop.REJECTED;
import static io.levee.it.method.Shop.assertAdmits;
import static io.levee.it.method.Shop.assertAllRan;
import static io.levee.it.method.Shop.assertTwoOfSix;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.lifecycle.CanonicalBytecode;
import io.levee.it.lifecycle.Cli;
import io.levee.it.lifecycle.Probe;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import methodapp.MethodApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code method} kind on an application started without the agent, whose services (the JDK
 * proxy's and Spring's generated classes included) are loaded and called before the agent comes: an
 * attach weaves exactly the loaded classes its rules name and, as they load, the classes loaded
 * after it; a reload from one method rule to another re-weaves exactly the classes of the two; a
 * checked exception a method does not declare is refused at its place in the file, at a reload or
 * an attach, and the rules in force stay (a first attach protects nothing); a detach gives back the
 * original bytecode of every class it wove. The bytecode is read by a test-only agent ({@link
 * Probe}) as the lifecycle tests do.
 *
 * <p>One application for the class; each test first brings the agent to the state it starts from,
 * so none relies on another having run. Reloads go through the {@code reload} command (the file's
 * own watcher is off), which returns once the rules are applied or refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MethodAttachContract {
  private static final String INVENTORY =
      """
        - name: inventory
          match: { method: { class: methodapp.shop.Inventory } }
          concurrency: { max: 2 }
      """;
  private static final String QUOTES =
      """
        - name: quotes
          match: { method: { class: methodapp.shop.Quotes } }
          concurrency: { max: 2 }
          on-block: { throw: methodapp.shop.QuoteUnavailableException }
      """;
  private static final String PROXIES =
      """
        - name: ledger
          match: { method: { class: methodapp.shop.Ledger } }
          concurrency: { max: 2 }
        - name: pricing
          match:
            method: { class: methodapp.spring.PricingService, annotated: org.springframework.stereotype.Service }
          concurrency: { max: 2 }
      """;
  private static final String LATE =
      """
        - name: late
          match: { method: { class: methodapp.late.LateService } }
          concurrency: { max: 2 }
      """;
  private static final String LATER =
      """
        - name: later
          match: { method: { class: methodapp.late.LaterService } }
          concurrency: { max: 2 }
      """;

  /** {@code ship} declares ShipmentException, {@code count} does not: both are in "*". */
  private static final String UNDECLARED =
      """
        - name: warehouse
          match: { method: { class: methodapp.shop.Warehouse, methods: ["*"] } }
          concurrency: { max: 2 }
          on-block: { throw: methodapp.shop.ShipmentException }
      """;

  private Jdk jdk;
  private ForkedApp app;
  private Shop shop;
  private Path rules;
  private String pid;
  private String ledgerProxy;
  private String pricingProxy;
  private Map<String, String> original;

  /** Whether the agent is in the application: set by every attach and detach that succeeded. */
  private boolean agentIn;

  protected abstract int jdk();

  @BeforeAll
  void start() throws Exception {
    jdk = Jdk.require(jdk());
    String name = "method-attach-jdk" + jdk();
    rules = RulesFile.write(name, RulesText.file(INVENTORY));
    app = ForkedApp.of(MethodApp.class).jdk(jdk).name(name).start();
    pid = app.pid();
    shop = new Shop(app);
    for (String target :
        List.of(
            "inventory",
            "inventory-discount",
            "warehouse",
            "quotes-fast",
            "quotes-cheap",
            "ledger",
            "pricing",
            "audit")) {
      Reply once = shop.call(target, "item", 1);
      assertThat(once.number("returned")).as("%s: %s", target, once).isEqualTo(1);
    }
    Reply classes = shop.classes();
    ledgerProxy = classes.get("ledger");
    pricingProxy = classes.get("pricing");
    assertThat(pricingProxy).as("%s", classes).contains("CGLIB");
    original = Probe.look(pid, loaded()).bytecode();
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void anAttachWeavesTheLoadedClassesItsRulesNameAndTheClassesLoadedAfterIt() throws Exception {
    agentOut();
    assertThat(shop.classes().get("late.loaded")).isEqualTo("false");
    edit(RulesText.file(INVENTORY, QUOTES, PROXIES, LATE));
    int mark = app.leveeLines().size();

    Cli.Result attach = attach(rules);

    assertThat(attach.exit()).as("%s", attach).isZero();
    assertThat(attach.out()).startsWith("Levee started: 5 resources from " + rules);
    List<String> woven =
        List.of(
            "methodapp.shop.Inventory",
            "methodapp.shop.DiscountInventory",
            "methodapp.shop.FastQuotes",
            "methodapp.shop.CheapQuotes",
            "methodapp.shop.LedgerBook",
            ledgerProxy,
            "methodapp.spring.PricingService",
            pricingProxy);
    assertThat(AgentLogSince.retransformed(app::leveeLines, mark))
        .isEqualTo(AgentLogSince.line(woven));
    Map<String, String> now = Probe.look(pid, loaded()).bytecode();
    for (String type : loaded()) {
      assertThat(now.get(type))
          .as("bytecode of %s", type)
          .matches(d -> woven.contains(type) != d.equals(original.get(type)), "woven if named");
    }

    assertTwoOfSix(shop.run("inventory"), "inventory", REJECTED);
    assertTwoOfSix(shop.run("quotes-fast,quotes-cheap"), "quotes", QUOTE_UNAVAILABLE);
    assertTwoOfSix(shop.run("ledger"), "ledger", REJECTED);
    assertTwoOfSix(shop.run("pricing", "pricing-scoped"), "pricing", REJECTED);
    assertTwoOfSix(shop.run("late"), "late", REJECTED);
    assertThat(shop.classes().get("late.loaded")).isEqualTo("true");
    assertAllRan(shop.run("warehouse"));

    Cli.Result status = Cli.run(jdk, "status", pid);
    assertThat(status.exit()).as("%s", status).isZero();
    for (String resource : List.of("inventory", "quotes", "ledger", "pricing", "late")) {
      assertThat(status.out())
          .containsPattern("(?m)^" + resource + " +method +enforce +- +2 +0 +2 +concurrency=4$");
    }
  }

  @Test
  void aReloadFromOneMethodRuleToAnotherReweavesExactlyTheClassesOfTheTwo() throws Exception {
    agentInWith(RulesText.file(INVENTORY));
    assertTwoOfSix(shop.run("inventory"), "inventory", REJECTED);
    int mark = app.leveeLines().size();
    // Only a policy changes: the same classes decide, with the new limit, and nothing is re-woven.
    edit(RulesText.file(INVENTORY.replace("max: 2", "max: 3")));
    Cli.Result policy = Cli.run(jdk, "reload", pid);
    assertThat(policy.exit()).as("%s", policy).isZero();
    assertAdmits(shop.run("inventory"), 3, "inventory", REJECTED);
    edit(RulesText.file(QUOTES));

    Cli.Result reload = Cli.run(jdk, "reload", pid);

    assertThat(reload.exit()).as("%s", reload).isZero();
    assertThat(reload.out()).contains("rules reloaded from " + rules + ": 1 resource");
    assertThat(AgentLogSince.retransformed(app::leveeLines, mark))
        .isEqualTo(
            AgentLogSince.line(
                List.of(
                    "methodapp.shop.Inventory",
                    "methodapp.shop.DiscountInventory",
                    "methodapp.shop.FastQuotes",
                    "methodapp.shop.CheapQuotes")));
    assertAllRan(shop.run("inventory"));
    assertTwoOfSix(shop.run("quotes-cheap"), "quotes", QUOTE_UNAVAILABLE);
    Map<String, String> now = Probe.look(pid, loaded()).bytecode();
    for (String type : loaded()) {
      boolean quotes = type.endsWith("Quotes");
      assertThat(now.get(type).equals(original.get(type)))
          .as("%s has its original bytecode", type)
          .isEqualTo(!quotes);
    }
  }

  @Test
  void aCheckedExceptionAMethodDoesNotDeclareIsRefusedAtItsPlaceAndTheRulesInForceStay()
      throws Exception {
    agentInWith(RulesText.file(INVENTORY));
    String undeclared = RulesText.file(INVENTORY, UNDECLARED);
    String where = RulesText.where(undeclared, "methodapp.shop.ShipmentException");
    edit(undeclared);
    int mark = app.leveeLines().size();

    Cli.Result reload = Cli.run(jdk, "reload", pid);

    assertThat(reload.exit()).as("%s", reload).isEqualTo(1);
    assertRefused(reload.err(), rules + ":" + where);
    assertThat(
            AgentLogSince.logged(
                app::leveeLines, mark, l -> l.contains("WARN rules file " + rules + " rejected")))
        .noneMatch(l -> l.contains("method resources changed"));

    Path other = RulesFile.write("method-attach-undeclared-jdk" + jdk(), undeclared);
    Cli.Result attach = attach(other);
    assertThat(attach.exit()).as("%s", attach).isNotZero();
    assertRefused(attach.out() + attach.err(), other + ":" + where);

    assertTwoOfSix(shop.run("inventory"), "inventory", REJECTED);
    assertAllRan(shop.run("warehouse"));
    assertAllRan(shop.run("warehouse-count"));
    assertThat(Probe.look(pid, List.of("methodapp.shop.Warehouse")).bytecode())
        .containsEntry("methodapp.shop.Warehouse", original.get("methodapp.shop.Warehouse"));
  }

  /**
   * A first attach has no rules in force to keep: it protects nothing, and the command, not only
   * the application's log, says why, as it does for a file with a syntax error.
   */
  @Test
  void aFirstAttachWithSuchAnExceptionProtectsNothingAndSaysWhere() throws Exception {
    agentOut();
    String undeclared = RulesText.file(INVENTORY, UNDECLARED);
    String location = rules + ":" + RulesText.where(undeclared, "methodapp.shop.ShipmentException");
    edit(undeclared);
    int mark = app.leveeLines().size();

    Cli.Result attach = attach(rules);

    AgentLogSince.logged(
        app::leveeLines, mark, l -> l.contains(location + ": resources[1].on-block.throw: "));
    assertAllRan(shop.run("inventory"));
    assertAllRan(shop.run("warehouse"));
    assertRefused(attach.out() + attach.err(), location);
  }

  @Test
  void aDetachRestoresTheOriginalBytecodeOfEveryClassItWove() throws Exception {
    agentInWith(RulesText.file(INVENTORY, QUOTES, PROXIES, LATER));
    assertTwoOfSix(shop.run("later"), "later", REJECTED);
    assertTwoOfSix(shop.run("pricing"), "pricing", REJECTED);
    List<String> classes = new ArrayList<>(loaded());
    classes.add("methodapp.late.LaterService");
    assertThat(Probe.look(pid, classes).bytecode().get("methodapp.shop.Inventory"))
        .isNotEqualTo(original.get("methodapp.shop.Inventory"));

    Cli.Result detach = detach();

    assertThat(detach.exit()).as("%s", detach).isZero();
    Map<String, String> after = Probe.look(pid, classes).bytecode();
    for (String type : loaded()) {
      assertThat(after.get(type)).as("bytecode of %s", type).isEqualTo(original.get(type));
    }
    // Loaded only under the agent: its original is the class file it was loaded from.
    assertThat(after.get("methodapp.late.LaterService"))
        .isEqualTo(CanonicalBytecode.digest(classFile("methodapp.late.LaterService")));
    for (String target : List.of("inventory", "quotes-fast", "ledger", "pricing", "later")) {
      assertAllRan(shop.run(target));
    }
  }

  @Test
  void callsInFlightWhileTheirClassIsReWovenEndNormallyAndLeaveNothingInFlight() throws Exception {
    agentInWith(RulesText.file(INVENTORY));

    // A reload that keeps the resource (quotes added): its two calls in flight stay counted.
    CompletableFuture<Reply> held = shop.runHeld("inventory");
    assertThat(inFlight("inventory")).isEqualTo(2);
    edit(RulesText.file(INVENTORY, QUOTES));
    assertThat(Cli.run(jdk, "reload", pid).exit()).isZero();
    assertThat(inFlight("inventory")).isEqualTo(2);
    assertTwoOfSix(shop.release(held), "inventory", REJECTED);
    assertThat(inFlight("inventory")).isZero();

    // A reload that removes it, Inventory re-woven back while two calls run in it.
    held = shop.runHeld("inventory");
    edit(RulesText.file(QUOTES));
    assertThat(Cli.run(jdk, "reload", pid).exit()).isZero();
    Reply ended = shop.release(held);
    assertThat(ended.number("returned")).as("%s", ended).isEqualTo(2);
    assertAllRan(shop.run("inventory"));

    edit(RulesText.file(INVENTORY));
    assertThat(Cli.run(jdk, "reload", pid).exit()).isZero();
    assertThat(inFlight("inventory")).isZero();
    assertTwoOfSix(shop.run("inventory"), "inventory", REJECTED);
  }

  /** The IN-FLIGHT column of {@code status} for {@code resource}. */
  private long inFlight(String resource) {
    Cli.Result status = Cli.run(jdk, "status", pid);
    Matcher row =
        Pattern.compile("(?m)^" + resource + " +method +\\S+ +\\S+ +\\S+ +(\\d+) ")
            .matcher(status.out());
    assertThat(row.find()).as("%s", status).isTrue();
    return Long.parseLong(row.group(1));
  }

  private static final String QUOTE_UNAVAILABLE = "methodapp.shop.QuoteUnavailableException";

  /** The classes of the application that were loaded before the agent came. */
  private List<String> loaded() {
    return List.of(
        "methodapp.shop.Inventory",
        "methodapp.shop.DiscountInventory",
        "methodapp.shop.Warehouse",
        "methodapp.shop.FastQuotes",
        "methodapp.shop.CheapQuotes",
        "methodapp.shop.LedgerBook",
        ledgerProxy,
        "methodapp.shop.AuditLog",
        "methodapp.spring.PricingService",
        pricingProxy);
  }

  private static void assertRefused(String output, String location) {
    assertThat(output)
        .as("the refusal")
        .contains(location + ": resources[1].on-block.throw: ")
        .contains("methodapp.shop.Warehouse")
        .contains("count");
  }

  private static byte[] classFile(String name) throws Exception {
    Path classes = Paths.get(System.getProperty("levee.test.classes", "target/test-classes"));
    return Files.readAllBytes(classes.resolve(name.replace('.', '/') + ".class"));
  }

  /** Where a test that attaches starts from: the agent out of the application. */
  private void agentOut() {
    if (agentIn) {
      Cli.Result detach = detach();
      assertThat(detach.exit()).as("%s", detach).isZero();
    }
  }

  /** The agent in, with these rules in force. */
  private void agentInWith(String yaml) throws Exception {
    edit(yaml);
    Cli.Result result = agentIn ? Cli.run(jdk, "reload", pid) : attach(rules);
    assertThat(result.exit()).as("%s", result).isZero();
  }

  private Cli.Result attach(Path file) {
    Cli.Result attach = Cli.run(jdk, "attach", pid, "--rules", file.toString(), "--force");
    agentIn |= attach.exit() == 0;
    return attach;
  }

  private Cli.Result detach() {
    Cli.Result detach = Cli.run(jdk, "detach", pid);
    agentIn &= detach.exit() != 0;
    return detach;
  }

  /** Replaces the rules file in one step, as an editor that saves atomically does. */
  private void edit(String yaml) throws Exception {
    Path aside = rules.resolveSibling(rules.getFileName() + ".new");
    Files.writeString(aside, yaml);
    Files.move(aside, rules, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
