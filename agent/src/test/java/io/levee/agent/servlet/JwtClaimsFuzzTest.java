package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The claim scanner against a real JSON parser: on generated payloads, valid and mutated, it reads
 * the claim Jackson reads (the last of duplicates, numbers by value) and refuses what Jackson
 * refuses; and no input at all makes it throw.
 */
class JwtClaimsFuzzTest {
  private static final int CASES = 20_000;
  private static final String[] NAMES = {"tenant", "ten\\u0061nt", "sub", "t", "tenants"};
  private static final String MUTATIONS = "{}[]\",:\\ \t\n0123456789eE.+-tfnrlu'/a";

  private final JsonMapper jackson =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();

  @Test
  void readsWhatAJsonParserReadsOnValidAndBrokenPayloads() {
    Random random = new Random(26);
    int objects = 0;
    int claims = 0;
    int skipped = 0;
    for (int i = 0; i < CASES; i++) {
      String json = object(random, 0);
      if (random.nextBoolean()) {
        json = mutate(random, json);
      }
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      JsonNode parsed;
      try {
        parsed = parse(bytes);
      } catch (NumberFormatException e) {
        // valid JSON, but an exponent too large for Jackson's BigDecimal: nothing to compare
        skipped++;
        continue;
      }
      String claim = JwtClaims.claim(bytes, "tenant");
      JsonNode expected = parsed != null && parsed.isObject() ? parsed.get("tenant") : null;
      objects += parsed != null && parsed.isObject() ? 1 : 0;
      if (expected != null && expected.isTextual()) {
        assertThat(claim).as(json).isEqualTo(expected.textValue());
        claims++;
      } else if (expected != null && expected.isNumber()) {
        assertThat(claim).as(json).isNotNull();
        assertThat(new BigDecimal(claim)).as(json).isEqualByComparingTo(expected.decimalValue());
        claims++;
      } else {
        assertThat(claim).as(json).isNull();
      }
    }
    assertThat(skipped).isLessThan(CASES / 100);
    // the generator reaches every side: well-formed objects with and without the claim, broken ones
    assertThat(objects).isBetween(CASES / 4, CASES * 3 / 4);
    assertThat(claims).isBetween(CASES / 10, objects - CASES / 10);
  }

  @Test
  void nothingMakesItThrow() {
    Random random = new Random(8);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.= +/\t!é";
    for (int i = 0; i < CASES; i++) {
      StringBuilder token = new StringBuilder(random.nextBoolean() ? "Bearer " : "bearer  ");
      int length = random.nextInt(64);
      for (int k = 0; k < length; k++) {
        token.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      JwtClaims.fromAuthorization(token.toString(), "tenant");
      byte[] bytes = new byte[random.nextInt(48)];
      random.nextBytes(bytes);
      JwtClaims.claim(bytes, "tenant");
      String json = mutate(random, object(random, 0));
      JwtClaims.fromAuthorization("Bearer " + JwtClaimsTest.token(json), "tenant");
    }
  }

  private JsonNode parse(byte[] json) {
    try {
      return jackson.readTree(json);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static String object(Random random, int depth) {
    StringBuilder s = new StringBuilder("{");
    int members = random.nextInt(depth == 0 ? 5 : 3);
    for (int i = 0; i < members; i++) {
      s.append(i > 0 ? "," : "").append(space(random));
      s.append('"').append(NAMES[random.nextInt(NAMES.length)]).append('"');
      s.append(space(random)).append(':').append(space(random)).append(value(random, depth + 1));
    }
    return s.append(space(random)).append('}').toString();
  }

  private static String value(Random random, int depth) {
    switch (random.nextInt(depth < 4 ? 9 : 7)) {
      case 0:
      case 1:
      case 2:
        return string(random);
      case 3:
      case 4:
        return number(random);
      case 5:
        return new String[] {"true", "false", "null"}[random.nextInt(3)];
      case 6:
        return "\"\"";
      case 7:
        return object(random, depth);
      default:
        StringBuilder a = new StringBuilder("[");
        int items = random.nextInt(3);
        for (int i = 0; i < items; i++) {
          a.append(i > 0 ? "," : "").append(space(random)).append(value(random, depth + 1));
        }
        return a.append(']').toString();
    }
  }

  private static String string(Random random) {
    String[] parts = {
      "acme",
      "premium-7",
      "é",
      "✓",
      "\\\"",
      "\\\\",
      "\\/",
      "\\n",
      "\\u00e9",
      "\\u0041",
      "{",
      "]",
      ",",
      ":",
      " ",
      "\\ud83d\\ude00",
      "😀"
    };
    StringBuilder s = new StringBuilder("\"");
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      s.append(parts[random.nextInt(parts.length)]);
    }
    return s.append('"').toString();
  }

  private static String number(Random random) {
    String[] forms = {
      "0", "-0", "42", "-17", "3.25", "-0.5e+3", "1E2", "6e-1", "12345678901234567890"
    };
    return forms[random.nextInt(forms.length)];
  }

  private static String space(Random random) {
    return new String[] {"", "", "", " ", "\n ", "\t"}[random.nextInt(6)];
  }

  /** One to three edits of ASCII characters: what a careless or hostile writer would make. */
  private static String mutate(Random random, String json) {
    StringBuilder s = new StringBuilder(json);
    int edits = 1 + random.nextInt(3);
    for (int i = 0; i < edits && s.length() > 0; i++) {
      int at = random.nextInt(s.length());
      char c = MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
      if (Character.isSurrogate(s.charAt(at))) {
        continue;
      }
      switch (random.nextInt(3)) {
        case 0:
          s.insert(at, c);
          break;
        case 1:
          s.deleteCharAt(at);
          break;
        default:
          s.setCharAt(at, c);
      }
    }
    return s.toString();
  }
}
