package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.RuleSet;
import io.levee.rules.testing.TestRules;
import org.junit.jupiter.api.Test;

/**
 * What {@code explain} says of a call: the resource the matcher picks, and when none, the one thing
 * that made each resource of the call's kind miss it.
 */
class ExplainTest {
  private static final RuleSet RULES =
      TestRules.load(
          """
          version: 1
          system:
            exclude: ["/health"]
            adaptive: {}
          resources:
            - name: lessons
              match: { servlet: { paths: ["/SqlInjection.lesson"] } }
              concurrency: { max: 4 }
            - name: admin
              match: { servlet: { paths: ["/WebGoat/admin/**"], methods: [POST] } }
              concurrency: { max: 1 }
            - name: partner
              match: { http: { urls: ["*://*/**"] } }
              concurrency: { max: 8 }
            - name: pay
              mode: monitor
              match: { http: { urls: ["https://pay.example.com/**"] } }
              concurrency: { max: 8 }
            - name: writes
              match:
                jdbc:
                  urls: ["jdbc:postgresql://db/**"]
                  operations: [INSERT, UPDATE]
                  tables: [orders]
                  sql: "(?i)returning"
              concurrency: { max: 2 }
          """);

  @Test
  void namesTheResourceThatAppliesAndTheLaterOnesItHides() {
    Explain.Result r = Explain.http(RULES, "GET", "https://pay.example.com/charge");
    assertThat(r.matched).isTrue();
    assertThat(r.lines)
        .containsExactly(
            "GET https://pay.example.com/charge: resource partner (http, 3rd resource in the file)",
            "  it matches pay too, later in the file: the first resource that matches a call is"
                + " the one that applies");
  }

  @Test
  void aPatternWithoutAPortMatchesOnlyTheDefaultPort() {
    Explain.Result r = Explain.http(RULES, "GET", "http://127.0.0.1:19090/api");
    assertThat(r.matched).isFalse();
    assertThat(r.lines.get(0))
        .isEqualTo(
            "GET http://127.0.0.1:19090/api: no resource; each http"
                + " resource, and why it missed:");
    assertThat(r.lines.get(1))
        .startsWith(
            "  partner: `*://*/**` names no port, so it matches only http's default port (80)")
        .endsWith("write the port (:19090) or any port (:*) after the host");
    assertThat(r.lines.get(2)).startsWith("  pay: its urls [`https://pay.example.com/**`]");
  }

  @Test
  void aSchemeThatDiffersIsSaid() {
    RuleSet rules =
        TestRules.load(
            """
            version: 1
            resources:
              - name: pay
                match: { http: { urls: ["https://pay.example.com/**"] } }
                concurrency: { max: 8 }
            """);
    assertThat(Explain.http(rules, "GET", "http://pay.example.com/charge").lines.get(1))
        .isEqualTo(
            "  pay: `https://pay.example.com/**` is for https, the call is http: use *://"
                + " for both");
  }

  @Test
  void aServletPathIncludesTheContextPath() {
    Explain.Result r = Explain.servlet(RULES, "GET", "/WebGoat/SqlInjection.lesson");
    assertThat(r.matched).isFalse();
    assertThat(r.lines)
        .contains(
            "  lessons: `/SqlInjection.lesson` matches /SqlInjection.lesson, but a servlet path"
                + " includes the application's context path (/WebGoat): write"
                + " /WebGoat/SqlInjection.lesson or /*/SqlInjection.lesson",
            "the system rule applies to it as well (it is not in system.exclude)");
  }

  @Test
  void aMethodThatDiffersIsSaidAndTheSystemExcludeToo() {
    assertThat(Explain.servlet(RULES, "GET", "/WebGoat/admin/users").lines)
        .contains("  admin: matches the path but not GET: methods [POST]");
    assertThat(Explain.servlet(RULES, "POST", "/WebGoat/admin/users").matched).isTrue();
    assertThat(Explain.servlet(RULES, "GET", "/health").lines)
        .endsWith("the system rule does not shed it: system.exclude names the path");
  }

  @Test
  void aStatementMissesByItsUrlOperationTablesOrSql() {
    String db = "jdbc:postgresql://db/shop";
    assertThat(Explain.jdbc(RULES, "jdbc:mysql://db/shop", "insert into orders values (1)").lines)
        .contains(
            "  writes: its urls [`jdbc:postgresql://db/**`] do not match jdbc:mysql://db/shop");
    assertThat(Explain.jdbc(RULES, db, "select * from orders").lines)
        .contains(
            "  writes: the statement is a SELECT, not one of its operations [INSERT, UPDATE]");
    assertThat(Explain.jdbc(RULES, db, "update customers set x = 1 returning id").lines)
        .contains(
            "  writes: the statement's tables [customers] do not match its tables [`orders`]");
    assertThat(Explain.jdbc(RULES, db, "update orders set x = 1").lines)
        .contains("  writes: its sql `(?i)returning` is not found in the statement");
    Explain.Result hit = Explain.jdbc(RULES, db, "update orders set x = 1 returning id");
    assertThat(hit.matched).isTrue();
    assertThat(hit.lines.get(0))
        .isEqualTo(
            "UPDATE [orders] on jdbc:postgresql://db/shop: resource writes (jdbc, 5th"
                + " resource in the file)");
    assertThat(Explain.jdbc(RULES, db, null).lines)
        .contains(
            "  writes: acquiring a connection matches only a resource whose operations name"
                + " CONNECT");
  }

  @Test
  void saysWhenTheFileHasNoResourceOfTheKind() {
    RuleSet none = TestRules.load("version: 1\nsystem: { adaptive: {} }\n");
    assertThat(Explain.http(none, "GET", "http://x/").lines)
        .containsExactly("GET http://x/: no resource (the file has no http resource)");
  }

  @Test
  void aMonitorResourceIsSaidToBeOne() {
    RuleSet rules =
        TestRules.load(
            """
            version: 1
            resources:
              - name: pay
                mode: monitor
                match: { http: { urls: ["https://pay.example.com/**"] } }
                concurrency: { max: 8 }
            """);
    assertThat(Explain.http(rules, "GET", "https://pay.example.com/x").lines.get(0))
        .endsWith("(http, 1st resource in the file; monitor mode: counted, never refused)");
  }
}
