package io.levee.agent.servlet;

import java.nio.charset.StandardCharsets;

/**
 * Reads one top-level claim of a JWT's payload, the key of {@code per: jwt:CLAIM} (SPEC §5.3): from
 * an {@code Authorization: Bearer} header, the payload of a compact token ({@code
 * header.payload.signature}), base64url-decoded, scanned as JSON. The token is decoded, never
 * verified: the claim keys a limit for fairness, it authenticates nothing.
 *
 * <p>A claim that is a string gives its value, escapes decoded; a number gives its text as written
 * ({@code 42}, {@code 4.2e1}); anything else (true, false, null, an object, an array), a claim
 * found only nested, and any token that is not a well-formed JWS with a JSON object as payload give
 * null. A name given twice: the last one counts, as RFC 7519 §4 asks of a parser that does not
 * reject the token, and as Jackson and JavaScript's {@code JSON.parse} read it, so the key is the
 * claim the application itself sees.
 *
 * <p>Cost: a token over {@link #MAX_TOKEN} characters is refused unread; otherwise one array for
 * the decoded payload and one string for the value, and a single pass over the JSON without
 * building a tree (nesting up to {@link #MAX_DEPTH}). Nothing throws on malformed input: hostile
 * tokens are the common bad case, and an exception with its stack trace per request would cost more
 * than the whole decision (hence {@link Base64Url} rather than {@code java.util.Base64}).
 */
final class JwtClaims {
  /** Longest token read, in characters; a longer one gives no claim. */
  static final int MAX_TOKEN = 8 * 1024;

  /** Deepest nesting of objects and arrays read in the payload; deeper gives no claim. */
  static final int MAX_DEPTH = 32;

  private static final String BEARER = "Bearer";

  private JwtClaims() {}

  /**
   * The claim {@code name} of the token of an {@code Authorization} header value ({@code Bearer},
   * any case, then the token); null when there is none to read.
   */
  static String fromAuthorization(String authorization, String name) {
    if (authorization == null
        || authorization.length() <= BEARER.length()
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    int start = BEARER.length();
    int end = authorization.length();
    if (!space(authorization.charAt(start))) {
      return null; // "Bearerx": another scheme
    }
    while (start < end && space(authorization.charAt(start))) {
      start++;
    }
    while (end > start && space(authorization.charAt(end - 1))) {
      end--;
    }
    return fromToken(authorization, start, end, name);
  }

  /** The claim {@code name} of the compact JWS {@code text[start, end)}; null when none. */
  static String fromToken(String text, int start, int end, String name) {
    if (end - start > MAX_TOKEN || end <= start) {
      return null;
    }
    int first = text.indexOf('.', start);
    if (first < 0 || first >= end) {
      return null;
    }
    int second = text.indexOf('.', first + 1);
    if (second < 0 || second >= end) {
      return null;
    }
    int third = text.indexOf('.', second + 1);
    if (third >= 0 && third < end) {
      return null; // five parts: an encrypted JWE, whose payload cannot be read
    }
    byte[] json = Base64Url.decode(text, first + 1, second);
    return json == null ? null : claim(json, name);
  }

  /**
   * The top-level member {@code name} of the JSON object {@code json}, as a string or a number's
   * text; null when it is absent, of another type, or {@code json} is not one JSON object.
   */
  static String claim(byte[] json, String name) {
    int n = json.length;
    int i = skipSpace(json, 0);
    if (i >= n || json[i] != '{') {
      return null;
    }
    int valueStart = -1;
    int valueEnd = -1;
    i = skipSpace(json, i + 1);
    if (i < n && json[i] == '}') {
      i++;
    } else {
      while (true) {
        int keyEnd = i < n && json[i] == '"' ? string(json, i) : -1;
        if (keyEnd < 0) {
          return null;
        }
        boolean named = nameIs(json, i + 1, keyEnd - 1, name);
        i = skipSpace(json, keyEnd);
        if (i >= n || json[i] != ':') {
          return null;
        }
        i = skipSpace(json, i + 1);
        int end = value(json, i, 1);
        if (end < 0) {
          return null;
        }
        if (named) {
          valueStart = i;
          valueEnd = end;
        }
        i = skipSpace(json, end);
        if (i < n && json[i] == ',') {
          i = skipSpace(json, i + 1);
        } else if (i < n && json[i] == '}') {
          i++;
          break;
        } else {
          return null;
        }
      }
    }
    if (skipSpace(json, i) != n || valueStart < 0) {
      return null;
    }
    byte first = json[valueStart];
    if (first == '"') {
      return text(json, valueStart + 1, valueEnd - 1);
    }
    if (first == '-' || digit(first)) {
      return new String(json, valueStart, valueEnd - valueStart, StandardCharsets.US_ASCII);
    }
    return null;
  }

  /** Where the JSON value at {@code i} ends; -1 when there is none well formed. */
  private static int value(byte[] json, int i, int depth) {
    if (i >= json.length) {
      return -1;
    }
    switch (json[i]) {
      case '"':
        return string(json, i);
      case '{':
      case '[':
        return depth >= MAX_DEPTH ? -1 : container(json, i, depth);
      case 't':
        return literal(json, i, "true");
      case 'f':
        return literal(json, i, "false");
      case 'n':
        return literal(json, i, "null");
      default:
        return number(json, i);
    }
  }

  /** Where the object or array at {@code i} ends, its members read at {@code depth + 1}. */
  private static int container(byte[] json, int i, int depth) {
    boolean object = json[i] == '{';
    byte close = (byte) (object ? '}' : ']');
    i = skipSpace(json, i + 1);
    if (i < json.length && json[i] == close) {
      return i + 1;
    }
    while (true) {
      if (object) {
        i = i < json.length && json[i] == '"' ? string(json, i) : -1;
        if (i < 0) {
          return -1;
        }
        i = skipSpace(json, i);
        if (i >= json.length || json[i] != ':') {
          return -1;
        }
        i = skipSpace(json, i + 1);
      }
      i = value(json, i, depth + 1);
      if (i < 0) {
        return -1;
      }
      i = skipSpace(json, i);
      if (i < json.length && json[i] == ',') {
        i = skipSpace(json, i + 1);
      } else if (i < json.length && json[i] == close) {
        return i + 1;
      } else {
        return -1;
      }
    }
  }

  /** Where the string starting with the quote at {@code i} ends (after its closing quote). */
  private static int string(byte[] json, int i) {
    int n = json.length;
    for (i++; i < n; i++) {
      byte b = json[i];
      if (b == '"') {
        return i + 1;
      }
      if (b == '\\') {
        if (i + 1 >= n) {
          return -1;
        }
        byte e = json[++i];
        if (e == 'u') {
          if (i + 4 >= n || hex(json, i + 1) < 0) {
            return -1;
          }
          i += 4;
        } else if (escaped(e) < 0) {
          return -1;
        }
      } else if (b >= 0 && b < 0x20) {
        return -1; // a control character must be escaped
      }
    }
    return -1;
  }

  /** Where the number at {@code i} ends: {@code -? int frac? exp?} as JSON writes it. */
  private static int number(byte[] json, int i) {
    int n = json.length;
    if (i < n && json[i] == '-') {
      i++;
    }
    if (i < n && json[i] == '0') {
      i++;
    } else if (i < n && digit(json[i])) {
      while (i < n && digit(json[i])) {
        i++;
      }
    } else {
      return -1;
    }
    if (i < n && json[i] == '.') {
      i = digits(json, i + 1);
      if (i < 0) {
        return -1;
      }
    }
    if (i < n && (json[i] == 'e' || json[i] == 'E')) {
      i++;
      if (i < n && (json[i] == '+' || json[i] == '-')) {
        i++;
      }
      i = digits(json, i);
    }
    return i;
  }

  /** Where the run of at least one digit at {@code i} ends; -1 when there is no digit. */
  private static int digits(byte[] json, int i) {
    int start = i;
    while (i < json.length && digit(json[i])) {
      i++;
    }
    return i > start ? i : -1;
  }

  private static int literal(byte[] json, int i, String word) {
    if (i + word.length() > json.length) {
      return -1;
    }
    for (int k = 0; k < word.length(); k++) {
      if (json[i + k] != word.charAt(k)) {
        return -1;
      }
    }
    return i + word.length();
  }

  /** Whether the string content {@code json[from, to)}, escapes decoded, is {@code name}. */
  private static boolean nameIs(byte[] json, int from, int to, String name) {
    int k = 0;
    for (int i = from; i < to; i++) {
      char c;
      if (json[i] == '\\') {
        c = json[i + 1] == 'u' ? (char) hex(json, i + 2) : (char) escaped(json[i + 1]);
        i += json[i + 1] == 'u' ? 5 : 1;
      } else if (json[i] < 0) {
        return false; // a byte of a non-ASCII character; a claim name in the rules is ASCII
      } else {
        c = (char) json[i];
      }
      if (k >= name.length() || name.charAt(k++) != c) {
        return false;
      }
    }
    return k == name.length();
  }

  /** The string content {@code json[from, to)} with its escapes decoded. */
  private static String text(byte[] json, int from, int to) {
    int slash = from;
    while (slash < to && json[slash] != '\\') {
      slash++;
    }
    if (slash == to) {
      return new String(json, from, to - from, StandardCharsets.UTF_8);
    }
    StringBuilder s = new StringBuilder(to - from);
    int run = from;
    for (int i = slash; i < to; i++) {
      if (json[i] != '\\') {
        continue;
      }
      s.append(new String(json, run, i - run, StandardCharsets.UTF_8));
      if (json[i + 1] == 'u') {
        s.append((char) hex(json, i + 2));
        i += 5;
      } else {
        s.append((char) escaped(json[i + 1]));
        i++;
      }
      run = i + 1;
    }
    return s.append(new String(json, run, to - run, StandardCharsets.UTF_8)).toString();
  }

  /** The character {@code \e} stands for, or -1 when it is no JSON escape ({@code \\u} aside). */
  private static int escaped(byte e) {
    switch (e) {
      case '"':
      case '\\':
      case '/':
        return e;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      default:
        return -1;
    }
  }

  /** The four hex digits at {@code i} as a number, or -1. */
  private static int hex(byte[] json, int i) {
    int v = 0;
    for (int k = i; k < i + 4; k++) {
      int d = Character.digit(json[k], 16);
      if (d < 0) {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }

  private static int skipSpace(byte[] json, int i) {
    while (i < json.length
        && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r')) {
      i++;
    }
    return i;
  }

  private static boolean digit(byte b) {
    return b >= '0' && b <= '9';
  }

  private static boolean space(char c) {
    return c == ' ' || c == '\t';
  }
}
