package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The claim of a bearer token that keys {@code per: jwt:CLAIM}: what is read, and what is not. */
class JwtClaimsTest {
  private static final String HEADER = encode("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");

  /** A compact token whose payload is {@code json}, with a signature nobody checks. */
  static String token(String json) {
    return HEADER + "." + encode(json) + ".c2lnbmF0dXJl";
  }

  static String encode(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String tenant(String json) {
    return JwtClaims.fromAuthorization("Bearer " + token(json), "tenant");
  }

  @Test
  void readsAStringClaim() {
    assertThat(tenant("{\"sub\":\"u-1\",\"tenant\":\"acme\",\"exp\":1700000000}"))
        .isEqualTo("acme");
    assertThat(tenant("{\"tenant\":\"café ✓\"}")).isEqualTo("café ✓");
  }

  @Test
  void readsANumberAsItIsWritten() {
    assertThat(tenant("{\"tenant\":42}")).isEqualTo("42");
    assertThat(tenant("{\"tenant\":-0.5e+3}")).isEqualTo("-0.5e+3");
    assertThat(tenant("{\"tenant\":0}")).isEqualTo("0");
    assertThat(tenant("{\"tenant\":12345678901234567890123}")).isEqualTo("12345678901234567890123");
  }

  @Test
  void skipsNestedObjectsArraysAndStringsThatLookLikeStructure() {
    assertThat(
            tenant(
                "{\"org\":{\"tenant\":\"inner\",\"ids\":[1,{\"x\":\"}]\"},[[]],{}]},"
                    + "\"note\":\"{\\\"tenant\\\":\\\"fake\\\"}\",\"roles\":[\"a\",\"b\"],"
                    + "\"tenant\":\"outer\"}"))
        .isEqualTo("outer");
  }

  @Test
  void aClaimFoundOnlyNestedIsNoClaim() {
    assertThat(tenant("{\"org\":{\"tenant\":\"acme\"},\"list\":[{\"tenant\":\"x\"}]}")).isNull();
    assertThat(tenant("{\"sub\":\"u-1\"}")).isNull();
    assertThat(tenant("{}")).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "false", "null", "{\"id\":\"acme\"}", "[\"acme\"]", "[]"})
  void aClaimThatIsNeitherStringNorNumberIsNoClaim(String value) {
    assertThat(tenant("{\"tenant\":" + value + "}")).isNull();
  }

  @Test
  void decodesEscapesInValuesAndNames() {
    assertThat(tenant("{\"tenant\":\"a\\\"b\\\\c\\/d\\u00e9\\n\"}")).isEqualTo("a\"b\\c/dé\n");
    assertThat(tenant("{\"tenant\":\"\\ud83d\\ude00-\\u0041\\t\"}")).isEqualTo("\uD83D\uDE00-A\t");
    assertThat(tenant("{\"\\u0074enant\":\"escaped-name\"}")).isEqualTo("escaped-name");
    assertThat(tenant("{\"ten\\u0061nt\":\"x\",\"tenant\\u0000\":\"y\"}")).isEqualTo("x");
    assertThat(tenant("{\"tenänt\":\"x\"}")).isNull();
  }

  @Test
  void theLastOfDuplicateNamesCounts() {
    assertThat(tenant("{\"tenant\":\"first\",\"sub\":1,\"tenant\":\"last\"}")).isEqualTo("last");
    assertThat(tenant("{\"tenant\":\"first\",\"tenant\":null}")).isNull();
    assertThat(tenant("{\"tenant\":true,\"tenant\":7}")).isEqualTo("7");
  }

  @Test
  void allowsWhitespaceWhereJsonDoes() {
    assertThat(tenant(" \r\n\t{ \"a\" : [ 1 , 2 ] ,\n \"tenant\"\t:\t\"acme\" \n}\n "))
        .isEqualTo("acme");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "\"acme\"",
        "[{\"tenant\":\"acme\"}]",
        "{\"tenant\":\"acme\"",
        "{\"tenant\":\"acme\",}",
        "{\"tenant\":\"acme\"}}",
        "{\"tenant\":\"acme\"} x",
        "{\"tenant\":\"acme\"}{}",
        "{'tenant':'acme'}",
        "{tenant:\"acme\"}",
        "{\"tenant\" \"acme\"}",
        "{\"tenant\":\"acme\" \"sub\":1}",
        "{\"tenant\":\"ac\\xme\"}",
        "{\"tenant\":\"ac\\u00g1\"}",
        "{\"tenant\":\"ac\\u00\"}",
        "{\"tenant\":\"ac\tme\"}",
        "{\"tenant\":\"acme}",
        "{\"tenant\":\"acme\\\"}",
        "{\"tenant\":01}",
        "{\"tenant\":1.}",
        "{\"tenant\":.5}",
        "{\"tenant\":+1}",
        "{\"tenant\":-}",
        "{\"tenant\":1e}",
        "{\"tenant\":0x10}",
        "{\"tenant\":NaN}",
        "{\"tenant\":tru}",
        "{\"tenant\":nulls}",
        "{\"tenant\":\"acme\",\"x\":[1,2}",
        "{\"tenant\":\"acme\",\"x\":{\"a\"}}",
        "{\"tenant\":\"acme\",\"x\":{1:2}}",
        "{\"tenant\":\"acme\",\"x\":[1,]}",
      })
  void aPayloadThatIsNotOneJsonObjectGivesNoClaim(String json) {
    assertThat(tenant(json)).as(json).isNull();
  }

  @Test
  void readsNestingUpToItsBoundAndNoDeeper() {
    int levels = JwtClaims.MAX_DEPTH - 1; // below the payload's own object
    assertThat(tenant("{\"x\":" + "[".repeat(levels) + "]".repeat(levels) + ",\"tenant\":\"a\"}"))
        .isEqualTo("a");
    assertThat(
            tenant(
                "{\"x\":" + "[".repeat(levels + 1) + "]".repeat(levels + 1) + ",\"tenant\":\"a\"}"))
        .isNull();
    assertThat(tenant("{\"x\":" + "[".repeat(100_000) + ",\"tenant\":\"a\"}")).isNull();
  }

  @Test
  void readsTheBearerSchemeInAnyCaseWithItsSpaces() {
    String token = token("{\"tenant\":\"acme\"}");
    assertThat(JwtClaims.fromAuthorization("bearer " + token, "tenant")).isEqualTo("acme");
    assertThat(JwtClaims.fromAuthorization("BEARER   " + token + "  ", "tenant")).isEqualTo("acme");
    assertThat(JwtClaims.fromAuthorization("Bearer\t" + token, "tenant")).isEqualTo("acme");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Bearer",
        "Bearer ",
        "Bearer abc",
        "Bearer a.b",
        "Bearer a.!!!.c",
        "Bearer a..c",
        "Bearer a.e30=.c.d.e",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0.c.d.e",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0x.c",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0+.c",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0/.c",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0===.c",
        "Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0é.c",
        "Bearerx a.eyJ0ZW5hbnQiOiJhY21lIn0.c",
        "Basic a.eyJ0ZW5hbnQiOiJhY21lIn0.c",
        "a.eyJ0ZW5hbnQiOiJhY21lIn0.c",
        "Bearer bm90IGpzb24.bm90IGpzb24.c",
      })
  void aHeaderWithoutAReadableTokenGivesNoClaim(String authorization) {
    assertThat(JwtClaims.fromAuthorization(authorization, "tenant")).as(authorization).isNull();
    assertThat(JwtClaims.fromAuthorization(null, "tenant")).isNull();
  }

  @Test
  void readsAPaddedPayloadToo() {
    // eyJ0ZW5hbnQiOiJhY21lIn0 is {"tenant":"acme"}: 23 characters, one '=' short of a multiple of 4
    assertThat(JwtClaims.fromAuthorization("Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0=.c", "tenant"))
        .isEqualTo("acme");
    assertThat(JwtClaims.fromAuthorization("Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0.c", "tenant"))
        .isEqualTo("acme");
    // an empty signature, as alg: none writes it
    assertThat(JwtClaims.fromAuthorization("Bearer a.eyJ0ZW5hbnQiOiJhY21lIn0.", "tenant"))
        .isEqualTo("acme");
  }

  @Test
  void decodesBase64urlOfEveryLength() {
    for (int n = 1; n <= 40; n++) {
      byte[] bytes = new byte[n];
      for (int i = 0; i < n; i++) {
        bytes[i] = (byte) (i * 37 + n);
      }
      String text = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      assertThat(Base64Url.decode(text, 0, text.length())).as("%d bytes", n).isEqualTo(bytes);
    }
  }

  @Test
  void refusesATokenOverTheCapUnread() {
    String json = "{\"tenant\":\"acme\",\"pad\":\"";
    String fits = token(json + "x".repeat(fill(json, JwtClaims.MAX_TOKEN)) + "\"}");
    assertThat(fits).hasSize(JwtClaims.MAX_TOKEN);
    assertThat(JwtClaims.fromAuthorization("Bearer " + fits, "tenant")).isEqualTo("acme");
    String over = token(json + "x".repeat(fill(json, JwtClaims.MAX_TOKEN) + 3) + "\"}");
    assertThat(over.length()).isGreaterThan(JwtClaims.MAX_TOKEN);
    assertThat(JwtClaims.fromAuthorization("Bearer " + over, "tenant")).isNull();
    String huge = token(json + "x".repeat(20 * 1024) + "\"}");
    assertThat(JwtClaims.fromAuthorization("Bearer " + huge, "tenant")).isNull();
  }

  /** How many padding characters make the token of {@code json + pad + "\"}"} {@code length}. */
  private static int fill(String json, int length) {
    int pad = 0;
    while (token(json + "x".repeat(pad + 1) + "\"}").length() <= length) {
      pad++;
    }
    return pad;
  }
}
