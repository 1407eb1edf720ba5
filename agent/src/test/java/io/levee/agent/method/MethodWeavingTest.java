package io.levee.agent.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Blocked;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import methodfixtures.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Which methods the method kind weaves, judged from class files as the weaver sees them while a
 * class is being defined (its ancestors read through its loader), and what a blocked call throws.
 */
class MethodWeavingTest {
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(new PrintStream(logged, true, StandardCharsets.UTF_8), AgentLog.Level.INFO);
  private final MethodWeaving weaving = new MethodWeaving(log);
  private final ClassLoader loader = getClass().getClassLoader();

  private void rules(String resources) {
    LoadResult result = RulesLoader.parse("rules.yaml", "version: 1\nresources:\n" + resources);
    assertThat(result.errors()).isEmpty();
    RuleSet rules = result.rules();
    assertThat(weaving.change(null, rules)).isEmpty();
  }

  private Map<String, Integer> targets(Class<?> type) throws IOException {
    return weaving.targets(loader, type.getName().replace('.', '/'), bytes(type));
  }

  private static byte[] bytes(Class<?> type) throws IOException {
    String path = type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getClassLoader().getResourceAsStream(path)) {
      return in.readAllBytes();
    }
  }

  @Test
  void anInterfacePatternWeavesTheInterfacesMethodsOfAnImplementationOnly() throws IOException {
    rules(
        "  - name: pricing\n"
            + "    match: { method: { class: methodfixtures.Fixtures$Priced } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(targets(Fixtures.PricedImpl.class).keySet())
        .containsExactly("quote(Ljava/lang/String;)Ljava/lang/String;");
    assertThat(targets(Fixtures.Priced.class)).as("an interface has nothing to weave").isNull();
    assertThat(targets(Fixtures.Unmarked.class)).isNull();
  }

  @Test
  void genericOverridesOfTheNamedInterfaceAreTakenThroughTheirBridges() throws IOException {
    rules(
        "  - name: repos\n"
            + "    match: { method: { class: methodfixtures.Fixtures$Repo } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(new TreeSet<>(targets(Fixtures.OrderRepo.class).keySet()))
        .containsExactly(
            "count()I", "find(Ljava/lang/String;)Ljava/lang/String;", "save(Ljava/lang/String;)V");
  }

  @Test
  void aGeneratedSubclassIsTakenForTheMethodsOfWhatItStandsForOnly() throws IOException {
    rules(
        "  - name: all\n"
            + "    match: { method: { class: \"methodfixtures.**\" } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(targets(Fixtures.MarkedBase$$EnhancerByTest.class).keySet())
        .containsExactly("work()Ljava/lang/String;");
    assertThat(targets(Fixtures.MarkedBase.class).keySet())
        .containsExactly("work()Ljava/lang/String;");
  }

  @Test
  void listedMethodsAreTakenByNameWhateverTheirVisibilityStaticOnesToo() throws IOException {
    rules(
        "  - name: finders\n"
            + "    match: { method: { class: \"methodfixtures.**\", methods: [\"find*\", util] } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(new TreeSet<>(targets(Fixtures.MarkedSub.class).keySet()))
        .containsExactly("findAll()Ljava/lang/String;", "findOne()Ljava/lang/String;");
    assertThat(targets(Fixtures.PricedImpl.class).keySet())
        .as("util is static")
        .containsExactly("util()Ljava/lang/String;");
  }

  @Test
  void anAnnotationCountsOnTheClassOrASuperclass() throws IOException {
    rules(
        "  - name: marked\n"
            + "    match: { method: { class: \"methodfixtures.*\", methods: [work],"
            + " annotated: methodfixtures.Fixtures$Marked } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(targets(Fixtures.MarkedBase.class)).containsKey("work()Ljava/lang/String;");
    assertThat(targets(Fixtures.MarkedSub.class)).containsKey("work()Ljava/lang/String;");
    assertThat(targets(Fixtures.Unmarked.class)).isNull();
  }

  @Test
  void aMethodWovenAgainKeepsItsSiteAndGetsTheResourcesInForce() throws IOException {
    rules(
        "  - name: a\n    match: { method: { class: methodfixtures.Fixtures$Unmarked } }\n"
            + "    concurrency: { max: 1 }\n");
    int site = targets(Fixtures.Unmarked.class).get("work()Ljava/lang/String;");
    assertThat(weaving.site(site).resources()).containsExactly("a");
    rules(
        "  - name: b\n    match: { method: { class: \"methodfixtures.*\", methods: [work] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "  - name: a\n    match: { method: { class: methodfixtures.Fixtures$Unmarked } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(targets(Fixtures.Unmarked.class).get("work()Ljava/lang/String;")).isEqualTo(site);
    assertThat(weaving.site(site).resources()).containsExactly("b", "a");
  }

  @Test
  void withoutMethodResourcesNothingIsWoven() throws IOException {
    assertThat(weaving.active()).isFalse();
    assertThat(targets(Fixtures.Unmarked.class)).isNull();
    rules(
        "  - name: a\n    match: { method: { class: methodfixtures.Fixtures$Unmarked } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(weaving.active()).isTrue();
    assertThat(weaving.targets(loader, "io/levee/agent/method/MethodWeavingTest", new byte[0]))
        .as("the agent's own classes")
        .isNull();
    assertThat(
            weaving.targets(
                null, "methodfixtures/Fixtures$Unmarked", bytes(Fixtures.Unmarked.class)))
        .as("the boot loader's")
        .isNull();
  }

  @Test
  void aBlockedCallThrowsTheNamedExceptionWhereTheMethodCanThrowIt() throws IOException {
    rules(
        "  - name: pricing\n"
            + "    match: { method: { class: methodfixtures.Fixtures$Priced } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { throw: methodfixtures.Fixtures$UncheckedFailure }\n");
    int site = targets(Fixtures.PricedImpl.class).values().iterator().next();
    Throwable thrown = weaving.blocked(site, blocked("methodfixtures.Fixtures$UncheckedFailure"));
    assertThat(thrown)
        .isInstanceOf(Fixtures.UncheckedFailure.class)
        .hasMessage("levee: pricing blocked the call (concurrency)");
    assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
  }

  @Test
  void aCheckedExceptionTheMethodDoesNotDeclareBecomesRejectedExecutionWithAWarning()
      throws IOException {
    rules(
        "  - name: pricing\n"
            + "    match: { method: { class: methodfixtures.Fixtures$Priced } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { throw: methodfixtures.Fixtures$CheckedFailure }\n");
    int site = targets(Fixtures.PricedImpl.class).values().iterator().next();
    Throwable thrown = weaving.blocked(site, blocked("methodfixtures.Fixtures$CheckedFailure"));
    assertThat(thrown)
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessage("levee: pricing blocked the call (concurrency)");
    weaving.blocked(site, blocked("methodfixtures.Fixtures$CheckedFailure"));
    String text = logged.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains(
            "WARN pricing: on-block.throw methodfixtures.Fixtures$CheckedFailure cannot be thrown:"
                + " it is a checked exception that is not declared by"
                + " methodfixtures.Fixtures$PricedImpl.quote(java.lang.String)");
    assertThat(text.indexOf("WARN")).as("warned once").isEqualTo(text.lastIndexOf("WARN"));
  }

  @Test
  void noMoreThanTheBoundOfClassesIsWovenAndALoaderThatGoesAwayGivesItsShareBack()
      throws IOException {
    rules(
        "  - name: a\n    match: { method: { class: methodfixtures.Fixtures$Unmarked } }\n"
            + "    concurrency: { max: 1 }\n");
    byte[] bytes = bytes(Fixtures.Unmarked.class);
    List<ClassLoader> alive = new ArrayList<>();
    int woven = 0;
    for (int i = 0; i < MethodWeaving.MAX_CLASSES + 5; i++) {
      ClassLoader own = new URLClassLoader(new URL[0], loader);
      alive.add(own);
      if (weaving.targets(own, "methodfixtures/Fixtures$Unmarked", bytes) != null) {
        woven++;
      }
    }
    assertThat(woven).isEqualTo(MethodWeaving.MAX_CLASSES);
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .contains("method resources already weave 2000 classes, the most they may");
    ClassLoader last = alive.get(alive.size() - 1);
    assertThat(weaving.targets(last, "methodfixtures/Fixtures$Unmarked", bytes)).isNull();

    // The loaders go away (an undeployed application): their classes no longer count.
    alive.subList(0, 100).clear();
    boolean room = false;
    for (int i = 0; i < 50 && !room; i++) {
      System.gc();
      room = weaving.targets(last, "methodfixtures/Fixtures$Unmarked", bytes) != null;
    }
    assertThat(room).as("room again once loaders are collected").isTrue();
  }

  private static Blocked blocked(String exception) {
    return Blocked.method(
        "pricing", "concurrency", "levee: pricing blocked the call (concurrency)", exception);
  }
}
