package io.levee.rules.match;

import static io.levee.rules.testing.TestRules.list;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.method;
import static io.levee.rules.testing.TestRules.rules;
import static io.levee.rules.testing.TestRules.servlet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.RuleSet;
import org.junit.jupiter.api.Test;

class MethodPlanTest {

  @Test
  void isEmptyWithoutMethodResources() {
    MethodPlan plan = MethodPlan.of(rules(servlet("api", list(), "/api/**")));
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.size()).isZero();
    assertThat(plan).isSameAs(MethodPlan.EMPTY);
    assertThat(MethodPlan.of(RuleSet.EMPTY)).isSameAs(MethodPlan.EMPTY);
  }

  @Test
  void indexesOnlyTheMethodResourcesInFileOrder() {
    MethodPlan plan =
        MethodPlan.of(
            rules(
                method("pricing", list("com.acme.pricing.PriceClient"), list(), null),
                servlet("api", list(), "/api/**"),
                method("stock", list("com.acme.stock.*Client"), list("find*"), null)));
    assertThat(plan.size()).isEqualTo(2);
    assertThat(plan.name(0)).isEqualTo("pricing");
    assertThat(plan.name(1)).isEqualTo("stock");
    assertThat(plan.match(1).kind).isEqualTo(CallKind.METHOD);
    assertThat(plan.match(1).method.classes).containsExactly("com.acme.stock.*Client");
  }

  @Test
  void namesAClassWhenAnyOfItsPatternsMatches() {
    MethodPlan plan =
        MethodPlan.of(
            rules(
                method(
                    "r", list("com.acme.pricing.PriceClient", "com.acme.**.*Port"), list(), null)));
    assertThat(plan.names(0, "com.acme.pricing.PriceClient")).isTrue();
    assertThat(plan.names(0, "com.acme.OrderPort")).isTrue();
    assertThat(plan.names(0, "com.acme.soap.v2.OrderPort")).isTrue();
    assertThat(plan.names(0, "com.acme.pricing.PriceClientImpl")).isFalse();
    assertThat(plan.names(0, "com.acme.pricing.PriceClient$$EnhancerBySpringCGLIB$$1")).isFalse();
  }

  @Test
  void matchesEveryMethodNameWhenNoneIsListed() {
    MethodPlan plan = MethodPlan.of(rules(method("r", list("com.acme.A"), list(), null)));
    assertThat(plan.listsMethods(0)).isFalse();
    assertThat(plan.methodNamed(0, "anything")).isTrue();
  }

  @Test
  void matchesListedMethodNamesWithStars() {
    MethodPlan plan =
        MethodPlan.of(rules(method("r", list("com.acme.A"), list("quote", "find*"), null)));
    assertThat(plan.listsMethods(0)).isTrue();
    assertThat(plan.methodNamed(0, "quote")).isTrue();
    assertThat(plan.methodNamed(0, "findAll")).isTrue();
    assertThat(plan.methodNamed(0, "find")).isTrue();
    assertThat(plan.methodNamed(0, "quotes")).isFalse();
    assertThat(plan.methodNamed(0, "refind")).isFalse();
  }

  @Test
  void givesTheAnnotationAsked() {
    MethodPlan plan =
        MethodPlan.of(
            rules(
                method("a", list("com.acme.A"), list(), "org.springframework.stereotype.Service"),
                method("b", list("com.acme.B"), list(), null)));
    assertThat(plan.annotated(0)).isEqualTo("org.springframework.stereotype.Service");
    assertThat(plan.annotated(1)).isNull();
  }

  @Test
  void isEqualForTheSameMethodResourcesWhateverElseChanged() {
    String pricing =
        "  - name: pricing\n"
            + "    match: { method: { class: com.acme.PriceClient, methods: [quote] } }\n"
            + "    concurrency: { max: MAX }\n";
    String api =
        "  - name: api\n"
            + "    match: { servlet: { paths: [\"/api/**\"] } }\n"
            + "    concurrency: { max: 5 }\n";
    MethodPlan a = MethodPlan.of(load("version: 1\nresources:\n" + pricing.replace("MAX", "8")));
    MethodPlan b =
        MethodPlan.of(load("version: 1\nresources:\n" + api + pricing.replace("MAX", "2")));
    assertThat(a).isEqualTo(b);
    assertThat(a.hashCode()).isEqualTo(b.hashCode());
  }

  @Test
  void differsWhenAMatchOrANameDiffers() {
    MethodPlan plan = MethodPlan.of(rules(method("r", list("com.acme.A"), list("quote"), null)));
    assertThat(plan)
        .isNotEqualTo(MethodPlan.of(rules(method("r", list("com.acme.A"), list("find"), null))))
        .isNotEqualTo(MethodPlan.of(rules(method("s", list("com.acme.A"), list("quote"), null))))
        .isNotEqualTo(
            MethodPlan.of(rules(method("r", list("com.acme.A"), list("quote"), "com.acme.Ann"))))
        .isNotEqualTo(MethodPlan.EMPTY);
  }

  @Test
  void refusesPatternsTheLoaderRefuses() {
    assertThatThrownBy(() -> MethodPlan.of(rules(method("r", list("java.**"), list(), null))))
        .isInstanceOf(PatternException.class);
    assertThatThrownBy(() -> MethodPlan.of(rules(method("r", list("com.A"), list("<init>"), null))))
        .isInstanceOf(PatternException.class);
  }
}
