package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.METHOD;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code method} kind (SPEC §5.2): its match, and each error it can make, with where the error
 * points. What it answers and which policies it takes: {@link MethodPolicyRulesTest}.
 */
class MethodRulesTest {
  private static final String CLASS_HINT =
      "like com.acme.pricing.PriceClient or com.acme.**.*Client";
  static final String THROW_INSTEAD =
      "does not apply to method resources: a blocked method call throws; name its exception with"
          + " `throw`, like throw: com.acme.pricing.PricingUnavailableException";

  /** The errors of a file that must not load, each as {@code line:column path: message}. */
  static List<String> located(String yaml) {
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

  private static List<String> list(String... values) {
    return java.util.Arrays.asList(values);
  }
}
