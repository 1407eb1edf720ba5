package io.levee.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The floors of Levee and the rooms on them, as DESIGN.md draws them, held against the compiled
 * classes: the bridge sees only java.base, the engine knows nothing of the agent or of any API it
 * intercepts, no package cycles, each integration in its own folder on each floor, and the agent's
 * packages in layers from its entry down to its log.
 */
class ArchitectureTest {
  private static final JavaClasses LEVEE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(location -> !location.contains("/io/levee/shaded/"))
          .importPackages("io.levee.bootstrap", "io.levee.rules", "io.levee.agent");

  @Test
  void theBridgeUsesOnlyJavaBase() {
    classes()
        .that()
        .resideInAPackage("io.levee.bootstrap..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.levee.bootstrap..",
            "java.lang..",
            "java.util",
            "java.util.concurrent..",
            "java.util.function..",
            "java.io..",
            "java.nio..",
            "java.net..",
            "java.security..",
            "java.text..",
            "java.math..",
            "java.time..")
        .because("the bridge is in the boot loader, which sees java.base only (DESIGN.md)")
        .check(LEVEE);
  }

  @Test
  void theEngineKnowsNothingOfTheAgentOrOfTheApisItDecidesFor() {
    noClasses()
        .that()
        .resideInAPackage("io.levee.rules..")
        // The one exception, left for now: the failure classifier reads an SQLException's SQLState
        // for failure.exceptions; java.sql is visible where the engine runs (the agent's loader).
        .and()
        .doNotHaveFullyQualifiedName("io.levee.rules.engine.FailureClassifier")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.levee.agent..",
            "net.bytebuddy..",
            "javax.servlet..",
            "jakarta.servlet..",
            "java.sql..",
            "io.micrometer..")
        .because("rules decides on plain values and is tested and benchmarked alone (DESIGN.md)")
        .check(LEVEE);
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.levee.bootstrap.(*)..").should().beFreeOfCycles().check(LEVEE);
    slices().matching("io.levee.rules.(*)..").should().beFreeOfCycles().check(LEVEE);
    slices().matching("io.levee.agent.(*)..").should().beFreeOfCycles().check(LEVEE);
  }

  @Test
  void integrationsDoNotReachIntoEachOther() {
    for (String floor : new String[] {"io.levee.bootstrap", "io.levee.agent"}) {
      slices()
          .matching(floor + ".(servlet|jdbc|http|method)..")
          .should()
          .notDependOnEachOther()
          .because("a new integration is a new folder beside the others (DESIGN.md)")
          .check(LEVEE);
    }
  }

  /**
   * The outbound clients beside {@code HttpURLConnection} share the bridge's answer and last-good
   * types, which live in its {@code http} folder, and nothing else of another integration.
   */
  @Test
  void outboundClientsShareOnlyTheBridgesAnswerAndLastGoodTypes() {
    for (String client : OUTBOUND_CLIENTS) {
      noClasses()
          .that()
          .resideInAnyPackage(
              "io.levee.bootstrap." + client + "..", "io.levee.agent." + client + "..")
          .should()
          .dependOnClassesThat(anotherIntegrationsOwn(client))
          .because("a new integration is a new folder beside the others (DESIGN.md)")
          .check(LEVEE);
    }
  }

  private static final String[] INTEGRATIONS = {"servlet", "jdbc", "http", "method"};
  private static final String[] OUTBOUND_CLIENTS = {
    "apache4", "apache5", "apache5async", "okhttp", "jdkhttp"
  };

  private static final Set<String> SHARED_HTTP =
      Set.of(
          "io.levee.bootstrap.http.HttpAnswer",
          "io.levee.bootstrap.http.BodyTee",
          "io.levee.bootstrap.http.LastGoodKeeper",
          "io.levee.bootstrap.http.TeeInputStream",
          "io.levee.bootstrap.http.BlockingClients",
          "io.levee.bootstrap.http.BlockingClientCalls",
          "io.levee.bootstrap.http.BlockingClientHooks");

  private static DescribedPredicate<JavaClass> anotherIntegrationsOwn(String client) {
    Pattern integration =
        Pattern.compile(
            "io\\.levee\\.(bootstrap|agent)\\.("
                + String.join("|", INTEGRATIONS)
                + "|"
                + String.join("|", OUTBOUND_CLIENTS)
                + ")(\\..*)?");
    return new DescribedPredicate<>("another integration's own classes") {
      @Override
      public boolean test(JavaClass c) {
        Matcher m = integration.matcher(c.getPackageName());
        return m.matches() && !m.group(2).equals(client) && !SHARED_HTTP.contains(c.getName());
      }
    };
  }

  @Test
  void theAgentIsLayeredFromItsEntryDownToItsLog() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("startup")
        .definedBy("io.levee.agent.startup..")
        .layer("cli")
        .definedBy("io.levee.agent.cli..")
        .layer("lifecycle")
        .definedBy("io.levee.agent.lifecycle..")
        .layer("rules file")
        .definedBy("io.levee.agent.rulesfile..")
        .layer("integrations")
        .definedBy(
            "io.levee.agent.servlet..",
            "io.levee.agent.jdbc..",
            "io.levee.agent.http..",
            "io.levee.agent.apache4..",
            "io.levee.agent.apache5..",
            "io.levee.agent.okhttp..",
            "io.levee.agent.jdkhttp..",
            "io.levee.agent.apache5async..",
            "io.levee.agent.method..")
        .layer("weaver")
        .definedBy("io.levee.agent.instrument..")
        .layer("observability")
        .definedBy("io.levee.agent.metrics..", "io.levee.agent.endpoint..")
        .layer("arguments")
        .definedBy("io.levee.agent.args..")
        .layer("log")
        .definedBy("io.levee.agent.log..")
        .whereLayer("startup")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("lifecycle")
        .mayOnlyBeAccessedByLayers("startup")
        .whereLayer("rules file")
        .mayOnlyBeAccessedByLayers("startup", "lifecycle")
        .whereLayer("integrations")
        .mayOnlyBeAccessedByLayers("startup")
        .whereLayer("weaver")
        .mayOnlyBeAccessedByLayers("startup", "lifecycle", "integrations")
        .whereLayer("observability")
        .mayOnlyBeAccessedByLayers("startup", "lifecycle")
        .whereLayer("arguments")
        .mayOnlyBeAccessedByLayers("startup", "lifecycle", "rules file")
        .check(LEVEE);
  }
}
