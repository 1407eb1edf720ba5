package io.levee.rules.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Damages a valid rules file the way people and tools do: lines deleted, duplicated, swapped or
 * re-indented; values replaced by wrong types, huge or negative numbers, unicode and control
 * characters; unknown keys; anchors, aliases and tags; truncation. Deterministic for a given {@link
 * Random}, so a failing case can be replayed from its seed and index.
 */
final class RulesMutator {
  /** What a value can be replaced with: wrong types, out of range, odd characters, YAML syntax. */
  static final String[] VALUES = {
    "-1",
    "0",
    "-0",
    "1e309",
    "99999999999999999999999999",
    "9223372036854775808",
    "-9223372036854775809",
    "2147483648",
    "-2147483649",
    "NaN",
    ".nan",
    ".inf",
    "-.inf",
    "0x7f",
    "1_000",
    "true",
    "false",
    "null",
    "~",
    "\"\"",
    "''",
    "[]",
    "{}",
    "[1, 2]",
    "{a: b}",
    "-5/s",
    "0/s",
    "99999999999999999/s",
    "1/ms",
    "/s",
    "-1s",
    "0ms",
    "9999999999999999999h",
    "1.5s",
    "5 s",
    "250%",
    "-50%",
    "1e3%",
    "%",
    "2s2s",
    "héllo",
    "日本語",
    "\uD83D\uDE00",
    "\"\\u0000\"",
    "\"\\x07\"",
    "\u0007",
    "\u0000",
    "\u200B",
    "\uFEFF",
    "\uD800",
    "\"\\uD800\"",
    "\u202Eevil",
    "a\u0085b",
    "\\",
    "\"unterminated",
    "'unterminated",
    "*undefined",
    "&anchor",
    "!!int 5",
    "!!float 1.5",
    "!!binary aGVsbG8=",
    "!!java.lang.Runtime {}",
    "!foo bar",
    "!<tag:example.com,2000:x> y",
    "!!map {}",
    "!!seq []",
    "!!str 5",
    "!!timestamp 2001-12-14",
    "|\n  block",
    ">\n  folded",
    "? complex",
    "- item",
    "a: b: c",
    "[unclosed",
    "{unclosed",
    "%YAML 1.1",
    "---",
    "...",
    "#comment",
    "`",
    "@",
    "\t",
    "  ",
    "x".repeat(70),
    "y".repeat(5000),
    "${env:HOME}",
    "/shop/**/**/**/**",
    "{name}",
    "[\"/a\", 5, null]",
    "jdbc:postgresql://*/orders*",
    "header:",
    "header:X-Tenant-ID",
    "ip",
    "param:",
    "cookie:x",
    "monitor",
    "enforce",
    "ENFORCE",
    "SELECT",
    "CONNECT",
    "5xx",
    "6xx",
    "[\"23*\"]",
    "java.lang.Error",
    "critical",
    "sheddable"
  };

  static final String[] KEYS = {
    "name",
    "match",
    "mode",
    "rate-limit",
    "concurrency",
    "adaptive",
    "circuit-breaker",
    "timeouts",
    "failure",
    "on-block",
    "priority",
    "rate",
    "burst",
    "per",
    "max",
    "max-wait",
    "warm-up",
    "system",
    "settings",
    "resources",
    "version",
    "max-keys",
    "reload",
    "servlet",
    "http",
    "jdbc",
    "method",
    "class",
    "annotated",
    "throw",
    "java.**",
    "com.acme.**.*Client",
    "find*",
    "paths",
    "urls",
    "methods",
    "tables",
    "operations",
    "sql",
    "exclude",
    "fallback",
    "status",
    "body",
    "bogus",
    "rate_limit",
    "Rate-Limit",
    "<<",
    "? x",
    "\"quoted key\"",
    "1",
    "null",
    "~",
    "日本"
  };

  private static final Pattern VALUE =
      Pattern.compile("(:\\s+|-\\s+|\\[|,\\s*)([^\\s,\\[\\]{}#][^,\\[\\]{}#\\n]*)");

  private RulesMutator() {}

  /** One to four random mutations of {@code text}. */
  static String mutate(String text, Random random) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits && !lines.isEmpty(); e++) {
      int at = random.nextInt(lines.size());
      switch (random.nextInt(12)) {
        case 0:
          lines.remove(at);
          break;
        case 1:
          lines.add(at, lines.get(at));
          break;
        case 2:
          swap(lines, at, random.nextInt(lines.size()));
          break;
        case 3:
          lines.set(at, reindent(lines.get(at), random));
          break;
        case 4:
        case 5:
        case 6:
          lines.set(at, replaceValue(lines.get(at), pick(VALUES, random), random));
          break;
        case 7:
          lines.add(at, indentOf(lines.get(at)) + pick(KEYS, random) + ": " + pick(VALUES, random));
          break;
        case 8:
          lines.set(at, anchorsAndTags(lines.get(at), lines, random));
          break;
        case 9:
          return truncate(String.join("\n", lines), random);
        case 10:
          lines.set(at, characterNoise(lines.get(at), random));
          break;
        default:
          lines.add(at, indentOf(lines.get(at)) + pick(KEYS, random) + ":");
          lines.add(
              at + 1,
              indentOf(lines.get(at)) + "  " + pick(KEYS, random) + ": " + pick(VALUES, random));
      }
    }
    return String.join("\n", lines);
  }

  private static String replaceValue(String line, String value, Random random) {
    Matcher m = VALUE.matcher(line);
    List<int[]> spans = new ArrayList<>();
    while (m.find()) {
      spans.add(new int[] {m.start(2), m.end(2)});
    }
    if (spans.isEmpty()) {
      return line + " " + value;
    }
    int[] span = spans.get(random.nextInt(spans.size()));
    return line.substring(0, span[0]) + value + line.substring(span[1]);
  }

  private static String reindent(String line, Random random) {
    String body = line.trim();
    switch (random.nextInt(4)) {
      case 0:
        return body;
      case 1:
        return " " + line;
      case 2:
        return "\t" + line;
      default:
        return " ".repeat(random.nextInt(40)) + body;
    }
  }

  private static String anchorsAndTags(String line, List<String> lines, Random random) {
    int colon = line.indexOf(": ");
    switch (random.nextInt(6)) {
      case 0:
        return colon < 0
            ? line + " &a"
            : line.substring(0, colon + 2) + "&a " + line.substring(colon + 2);
      case 1:
        return colon < 0 ? line + " *a" : line.substring(0, colon + 2) + "*a";
      case 2:
        return colon < 0
            ? "!!map " + line
            : line.substring(0, colon + 2) + "!!str " + line.substring(colon + 2);
      case 3:
        return indentOf(line) + "<<: *a";
      case 4:
        lines.add(0, "x: &a {rate: 5/s, burst: 10}");
        return line;
      default:
        return colon < 0
            ? "!!java.net.URL " + line
            : line.substring(0, colon + 2)
                + "!!javax.script.ScriptEngineManager [] "
                + line.substring(colon + 2);
    }
  }

  private static String truncate(String text, Random random) {
    return text.isEmpty() ? text : text.substring(0, random.nextInt(text.length()));
  }

  private static String characterNoise(String line, Random random) {
    if (line.isEmpty()) {
      return "\u0000";
    }
    StringBuilder s = new StringBuilder(line);
    int at = random.nextInt(s.length());
    char[] noise = {
      '\u0000', '\u0001', '\u001b', '\u007f', '\r', '\t', ':', '"', '\'', '{', '[', '&', '*', '!',
      '|', '>', '%', '@', '\uFFFE', '\uDC00'
    };
    s.insert(at, noise[random.nextInt(noise.length)]);
    return s.toString();
  }

  private static void swap(List<String> lines, int a, int b) {
    String t = lines.get(a);
    lines.set(a, lines.get(b));
    lines.set(b, t);
  }

  private static String indentOf(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return line.substring(0, i);
  }

  private static String pick(String[] values, Random random) {
    return values[random.nextInt(values.length)];
  }
}
