package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.METHOD;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code method} kind (SPEC §5.2): its match, {@code on-block.throw}, the policies it takes,
 * and each error it can make, with where the error points.
 */
class MethodRulesTest {
  private static final String CLASS_HINT =
      "like com.acme.pricing.PriceClient or com.acme.**.*Client";
  private static final String THROW_INSTEAD =
      "does not apply to method resources: a blocked method call throws; name its exception with"
          + " `throw`, like throw: com.acme.pricing.PricingUnavailableException";

  /** The errors of a file that must not load, each as {@code line:column path: message}. */
  private static List<String> located(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", yaml);
    assertThat(result.ok()).as("expected errors in:\n%s", yaml).isFalse();
    return result.errors().stream()
        .map(e -> e.line() + ":" + e.column() + " " + e.path() + ": " + e.message())
        .collect(Collectors.toList());
  }

  private static String method(String fields) {
    return "method: { " + fields + " }";
  }

  // match

  @Test
  void readsClassesMethodsAndAnnotation() {
    ResourceRule r =
        only(
            resource(
                method(
                    "class: [com.acme.pricing.PriceClient, \"com.acme.**.*Port\"],"
                        + " methods: [quote, \"find*\"],"
                        + " annotated: org.springframework.stereotype.Service"),
                "concurrency: { max: 8 }"));
    assertThat(r.match.kind).isEqualTo(CallKind.METHOD);
    assertThat(r.match.method)
        .isEqualTo(
            new MethodMatch(
                java.util.Arrays.asList("com.acme.pricing.PriceClient", "com.acme.**.*Port"),
                java.util.Arrays.asList("quote", "find*"),
                "org.springframework.stereotype.Service"));
    assertThat(r.match.methods).isEmpty();
    assertThat(r.match.paths).isEmpty();
    assertThat(r.match.urls).isEmpty();
    assertThat(r.match.operations).isEmpty();
    assertThat(r.match.tables).isEmpty();
    assertThat(r.match.sql).isNull();
  }

  @Test
  void readsOneClassAsAListOfOne() {
    ResourceRule r = only(resource(METHOD, "concurrency: { max: 8 }"));
    assertThat(r.match)
        .isEqualTo(new Match(new MethodMatch(list("com.acme.pricing.PriceClient"), list(), null)));
  }

  @Test
  void protectsTheDeclaredMethodsAndThrowsTheDefaultWhenLeftOut() {
    ResourceRule r = only(resource(METHOD, "concurrency: { max: 8 }"));
    assertThat(r.match.method.methods).isEmpty();
    assertThat(r.match.method.annotated).isNull();
    assertThat(r.onBlock).isEqualTo(OnBlock.DEFAULT);
    assertThat(r.onBlock.exception).isNull();
    assertThat(r.onBlock.exceptionOrDefault())
        .isEqualTo("java.util.concurrent.RejectedExecutionException");
  }

  @Test
  void namesMethodAmongTheKindsOfMatch() {
    assertThat(located(resource("", "concurrency: { max: 1 }")))
        .containsExactly(
            "4:5 resources[0].match: `match` needs one of servlet, http, jdbc or method");
    assertThat(located(resource("methd: { class: com.acme.A }", "concurrency: { max: 1 }")))
        .containsExactly(
            "4:5 resources[0].match: `match` needs one of servlet, http, jdbc or method",
            "4:14 resources[0].match.methd: unknown key `methd`; did you mean `method`?");
    assertThat(
            errors(
                "version: 1\nresources:\n  - name: r\n    match: 5\n    concurrency: { max: 1 }\n"))
        .containsExactly(
            "resources[0].match: expected a mapping with one of servlet, http, jdbc or method,"
                + " got '5'");
  }

  @Test
  void matchesOneKindOnly() {
    assertThat(located(resource(SERVLET + ", " + METHOD, "concurrency: { max: 1 }")))
        .containsExactly(
            "4:47 resources[0].match.method: a resource matches one kind of call, but `match` has"
                + " both `servlet` and `method`; split it into two resources");
  }

  @Test
  void requiresClass() {
    String message =
        "resources[0].match.method.class: `class` is required: the class or interface whose"
            + " methods to protect, like class: com.acme.pricing.PriceClient";
    assertThat(located(resource(method("methods: [quote]"), "concurrency: { max: 1 }")))
        .containsExactly("4:14 " + message);
    assertThat(located(resource("method:", "concurrency: { max: 1 }")))
        .containsExactly("4:14 " + message);
  }

  @Test
  void rejectsAnEmptyClassList() {
    assertThat(located(resource(method("class: []"), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:31 resources[0].match.method.class: the list is empty; `class` needs a class name"
                + " pattern "
                + CLASS_HINT);
  }

  @Test
  void rejectsAClassThatIsAMapping() {
    assertThat(located(resource(method("class: { name: com.acme.A }"), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:31 resources[0].match.method.class: expected a class name pattern "
                + CLASS_HINT
                + ", or a list of them, got a mapping");
  }

  @Test
  void pointsAtTheCharacterThatBreaksAClassPattern() {
    assertThat(
            located(
                resource(
                    method("class: [com.acme.A, \"com.acme.Price Client\"]"),
                    "concurrency: { max: 1 }")))
        .containsExactly(
            "4:59 resources[0].match.method.class[1]: a class pattern cannot contain a space, as it"
                + " is a binary class name ($ before a nested class) with * and **, "
                + CLASS_HINT
                + ", got 'com.acme.Price Client'");
    assertThat(located(resource(method("class: com.acme.a**"), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:41 resources[0].match.method.class: `**` must be a whole segment, like com.acme.**"
                + " or com.acme.**.*Client, got 'com.acme.a**'");
    assertThat(located(resource(method("class: com/acme/A"), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:34 resources[0].match.method.class: a class pattern separates packages with `.`,"
                + " not `/`, like com.acme.pricing.PriceClient, got 'com/acme/A'");
  }

  @Test
  void refusesAClassPatternUnderTheJdkOrTheAgent() {
    assertThat(
            located(
                resource(
                    method("class: java.util.concurrent.Callable"), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:31 resources[0].match.method.class: Levee never weaves classes under `java.` (the"
                + " JDK), name the application's classes or interfaces, "
                + CLASS_HINT
                + ", got 'java.util.concurrent.Callable'");
    assertThat(
            errors(
                resource(
                    method("class: [com.acme.A, io.levee.agent.Agent]"),
                    "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.class[1]: Levee never weaves classes under `io.levee.`"
                + " (Levee itself), name the application's classes or interfaces, "
                + CLASS_HINT
                + ", got 'io.levee.agent.Agent'");
  }

  @Test
  void refusesAClassPatternThatCouldReachTheJdkThroughAWildcard() {
    assertThat(located(resource(method("class: \"com.**.Client\""), "concurrency: { max: 1 }")))
        .containsExactly(
            "4:36 resources[0].match.method.class: this pattern could match classes under"
                + " `com.sun.` (the JDK), which Levee never weaves, name the package before any"
                + " wildcard, "
                + CLASS_HINT
                + ", got 'com.**.Client'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"*.PriceClient", "**", "**.PriceClient"})
  void refusesAClassPatternThatStartsWithAWildcardSegment(String pattern) {
    assertThat(errors(resource(method("class: \"" + pattern + "\""), "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.class: a class pattern cannot start with a wildcard"
                + " segment, as it could match the JDK's classes and Levee's own, start with the"
                + " application's package, like com.acme.**.*Client, got '"
                + pattern
                + "'");
  }

  @Test
  void rejectsAMethodPatternThatIsNotAName() {
    assertThat(
            located(
                resource(
                    method("class: com.acme.A, methods: [quote, \"find(String)\"]"),
                    "concurrency: { max: 1 }")))
        .containsExactly(
            "4:65 resources[0].match.method.methods[1]: a method pattern is a method's name alone,"
                + " without `(`, as the class goes in `class` and every overload is matched, like"
                + " quote or find*, got 'find(String)'");
    assertThat(
            errors(
                resource(
                    method("class: com.acme.A, methods: [\"<init>\"]"), "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.methods[0]: a method pattern cannot contain `<`, as"
                + " constructors and static initialisers are never woven, like quote or find*,"
                + " got '<init>'");
  }

  @Test
  void rejectsAnEmptyMethodList() {
    assertThat(
            errors(resource(method("class: com.acme.A, methods: []"), "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.methods: the list is empty; leave `methods` out to protect"
                + " every public method the class declares");
  }

  @Test
  void rejectsMethodsThatAreNotAList() {
    assertThat(
            errors(
                resource(method("class: com.acme.A, methods: quote"), "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.methods: expected a list like [quote, \"find*\"], got"
                + " 'quote'");
  }

  @Test
  void rejectsAnAnnotationThatIsNotAClassName() {
    assertThat(
            located(
                resource(
                    method("class: com.acme.A, annotated: \"@Service\""),
                    "concurrency: { max: 1 }")))
        .containsExactly(
            "4:54 resources[0].match.method.annotated: expected an annotation's class name like"
                + " org.springframework.stereotype.Service, got '@Service'");
  }

  @Test
  void suggestsTheClosestKeyOfMethod() {
    assertThat(
            errors(
                resource(method("class: com.acme.A, method: [quote]"), "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.method.method: unknown key `method`; did you mean `methods`?");
  }

  // on-block

  @Test
  void readsTheExceptionToThrowAndWhereItIsWritten() {
    OnBlock b =
        only(resource(
                METHOD,
                "concurrency: { max: 8 }",
                "on-block: { throw: com.acme.pricing.PricingUnavailableException }"))
            .onBlock;
    assertThat(b.exception).isEqualTo("com.acme.pricing.PricingUnavailableException");
    assertThat(b.exceptionOrDefault()).isEqualTo("com.acme.pricing.PricingUnavailableException");
    assertThat(b.exceptionLine).isEqualTo(6);
    assertThat(b.exceptionColumn).isEqualTo(24);
  }

  @Test
  void locatesTheExceptionToThrowWrittenInBlockStyleAndQuoted() {
    OnBlock b =
        only(resource(
                METHOD,
                "concurrency: { max: 8 }",
                "on-block:",
                "  throw: \"com.acme.pricing.PricingUnavailableException\""))
            .onBlock;
    assertThat(b.exceptionLine).isEqualTo(7);
    assertThat(b.exceptionColumn).isEqualTo(14);
  }

  @Test
  void locatesTheExceptionAsTheLoaderLocatesABadValue() {
    String yaml =
        resource(
            METHOD, "concurrency: { max: 8 }", "on-block: { throw: \"com.acme.Bad-Exception\" }");
    assertThat(located(yaml))
        .containsExactly(
            "6:24 resources[0].on-block.throw: expected an exception class name like"
                + " java.util.concurrent.RejectedExecutionException, got 'com.acme.Bad-Exception'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "status: 503",
        "retry-after: 2s",
        "body: busy",
        "content-type: text/plain",
        "headers: { X-Reason: busy }",
        "fallback: { status: 503 }",
        "sql-state: \"53000\""
      })
  void rejectsWhatOtherKindsAnswerWithOnAMethodResource(String field) {
    String key = field.substring(0, field.indexOf(':'));
    assertThat(
            located(
                resource(
                    METHOD,
                    "concurrency: { max: 8 }",
                    "on-block: { throw: com.acme.Busy, " + field + " }")))
        .containsExactly("6:39 resources[0].on-block." + key + ": `" + key + "` " + THROW_INSTEAD);
  }

  @Test
  void allowsThrowOnlyOnMethodResources() {
    String onBlock = "on-block: { throw: com.acme.Busy }";
    assertThat(located(resource(SERVLET, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "6:17 resources[0].on-block.throw: `throw` applies only to method resources; this"
                + " resource matches servlet calls, and a blocked request gets `status`, `body`"
                + " and `headers`");
    assertThat(errors(resource(HTTP, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "resources[0].on-block.throw: `throw` applies only to method resources; this resource"
                + " matches http calls, and a blocked http call throws an IOException, or answers"
                + " with `fallback`");
    assertThat(errors(resource(JDBC, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "resources[0].on-block.throw: `throw` applies only to method resources; this resource"
                + " matches jdbc calls, and a blocked jdbc call throws a SQLTransientException"
                + " with `sql-state`");
    assertThat(errors("version: 1\nsystem: { adaptive: {}, " + onBlock + " }\n"))
        .containsExactly(
            "system.on-block.throw: `throw` applies only to method resources; `system` sheds"
                + " inbound requests, and a blocked request gets `status`, `body` and `headers`");
  }

  // policies

  @Test
  void takesEveryPolicyButTimeouts() {
    ResourceRule r =
        only(
            resource(
                METHOD,
                "mode: monitor",
                "circuit-breaker: { failure-rate: 50%, slow-call: 2s }",
                "rate-limit: { rate: 20/s, max-wait: 100ms }",
                "concurrency: { max: 8 }",
                "adaptive: { max-limit: 32 }",
                "failure: { exceptions: [java.io.IOException],"
                    + " ignore-exceptions: [java.io.FileNotFoundException] }"));
    assertThat(r.mode).isEqualTo(Mode.MONITOR);
    assertThat(r.circuitBreaker).isNotNull();
    assertThat(r.rateLimit.per).isNull();
    assertThat(r.concurrency.max).isEqualTo(8);
    assertThat(r.adaptive.maxLimit).isEqualTo(32);
    assertThat(r.failure.exceptions).containsExactly("java.io.IOException");
    assertThat(r.failure.ignoreExceptions).containsExactly("java.io.FileNotFoundException");
  }

  @Test
  void rejectsPerOnAMethodResource() {
    assertThat(located(resource(METHOD, "rate-limit: { rate: 5/s, per: ip }")))
        .containsExactly(
            "5:30 resources[0].rate-limit.per: `per` gives each client of an inbound request its"
                + " own bucket, so it applies only to servlet resources; this resource matches"
                + " method calls");
  }

  @Test
  void rejectsTimeoutsOnAMethodResourceOnce() {
    String message =
        "resources[0].timeouts: `timeouts` applies to http and jdbc resources, whose clients have"
            + " a timeout to set; a method has none (bound slow calls with circuit-breaker's"
            + " `slow-call`)";
    assertThat(
            located(
                resource(
                    METHOD, "concurrency: { max: 1 }", "timeouts: { connect: 1s, query: 2s }")))
        .containsExactly("6:5 " + message);
    assertThat(located(resource(METHOD, "concurrency: { max: 1 }", "timeouts: {}")))
        .containsExactly("6:5 " + message);
  }

  @Test
  void rejectsStatusesAndSqlStatesAsFailuresOfAMethod() {
    assertThat(
            located(
                resource(
                    METHOD,
                    "circuit-breaker: {}",
                    "failure: { statuses: [\"5xx\"], ignore-sql-states: [\"23*\"] }")))
        .containsExactly(
            "6:16 resources[0].failure.statuses: `statuses` applies to servlet and http resources;"
                + " a method call has no status (use `exceptions` and `ignore-exceptions`)",
            "6:35 resources[0].failure.ignore-sql-states: `ignore-sql-states` applies only to jdbc"
                + " resources; this resource matches method calls (use `ignore-exceptions` for what"
                + " the method throws)");
  }

  @Test
  void namesThePoliciesAMethodResourceCanHave() {
    assertThat(errors(resource(METHOD, "on-block: { throw: com.acme.Busy }")))
        .containsExactly(
            "resources[0]: resource `r` has no policy; add at least one of circuit-breaker,"
                + " rate-limit, concurrency or adaptive");
  }

  // the file as a whole

  @Test
  void holdsUpToSixtyFourMethodResources() {
    assertThat(load(methodResources(64)).resources).hasSize(64);
  }

  @Test
  void rejectsTheSixtyFifthMethodResource() {
    String yaml = methodResources(66);
    assertThat(located(yaml))
        .containsExactly(
            (3 + 64 * 3)
                + ":5 resources[64]: a rules file may hold at most 64 method resources, and this is"
                + " the 65th; protect several classes with one resource (`class` takes a list)"
                + " where they can share its policies");
  }

  @Test
  void countsOnlyMethodResourcesTowardsTheirBound() {
    String yaml =
        methodResources(64)
            + "  - name: api\n    match: { "
            + SERVLET
            + " }\n    concurrency: { max: 1 }\n";
    assertThat(load(yaml).resources).hasSize(65);
  }

  @Test
  void leavesTheOtherKindsAsTheyWere() {
    ResourceRule r =
        only(resource(HTTP, "concurrency: { max: 1 }", "on-block: { fallback: { status: 503 } }"));
    assertThat(r.match.method).isNull();
    assertThat(r.onBlock.exception).isNull();
    assertThat(r.onBlock.exceptionLine).isZero();
    assertThat(r.onBlock.exceptionColumn).isZero();
  }

  private static String methodResources(int n) {
    StringBuilder yaml = new StringBuilder("version: 1\nresources:\n");
    for (int i = 0; i < n; i++) {
      yaml.append("  - name: m")
          .append(i)
          .append("\n    match: { method: { class: com.acme.C")
          .append(i)
          .append(" } }\n    concurrency: { max: 1 }\n");
    }
    return yaml.toString();
  }

  private static List<String> list(String... values) {
    return java.util.Arrays.asList(values);
  }
}
