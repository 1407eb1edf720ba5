package io.levee.rules.match;

import java.util.Locale;

/**
 * Cuts the first {@link #MAX_CHARS} characters of a SQL text into tokens for {@link SqlParser}:
 * words, quoted identifiers and single punctuation characters. Comments, string literals (standard
 * {@code 'it''s'}, PostgreSQL {@code E'\''} and {@code $tag$...$tag$}), numbers and parameters are
 * dropped because nothing in them names a statement or a table. An unterminated quote or comment
 * simply runs to the end; nothing here can fail or loop.
 */
final class SqlLexer {
  /** Work is bounded: text past this is not read. */
  static final int MAX_CHARS = 32 * 1024;

  static final byte WORD = 0;
  static final byte QUOTED = 1;
  static final byte PUNCT = 2;

  private final String sql;
  private final int limit;

  byte[] types = new byte[64];
  int[] starts = new int[64];
  int[] ends = new int[64];

  /** Upper-case text of WORD tokens, unquoted lower-case text of QUOTED ones, null for PUNCT. */
  String[] texts = new String[64];

  int count;

  SqlLexer(String sql) {
    this.sql = sql;
    this.limit = Math.min(sql.length(), MAX_CHARS);
    run();
  }

  private void run() {
    int i = 0;
    while (i < limit) {
      char c = sql.charAt(i);
      if (c <= ' ' || Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && next(i) == '-') {
        i = lineEnd(i);
      } else if (c == '/' && next(i) == '*') {
        int close = find("*/", i + 2);
        i = close < 0 ? limit : close + 2;
      } else if (c == '\'') {
        i = stringEnd(i, false);
      } else if (c == '"' || c == '`' || c == '[') {
        i = quoted(i, c == '[' ? ']' : c);
      } else if (c == '$' && dollarTagEnd(i) > 0) {
        i = dollarStringEnd(i, dollarTagEnd(i));
      } else if (c >= '0' && c <= '9' || c == '$') {
        i = numberEnd(i + 1);
      } else if (isWordStart(c)) {
        int end = wordEnd(i + 1);
        if (end == i + 1 && (c == 'E' || c == 'e') && end < limit && sql.charAt(end) == '\'') {
          i = stringEnd(end, true);
        } else {
          add(WORD, i, end, sql.substring(i, end).toUpperCase(Locale.ROOT));
          i = end;
        }
      } else {
        add(PUNCT, i, i + 1, null);
        i++;
      }
    }
  }

  private char next(int i) {
    return i + 1 < limit ? sql.charAt(i + 1) : 0;
  }

  private int lineEnd(int i) {
    while (i < limit && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  private int stringEnd(int open, boolean backslashEscapes) {
    int i = open + 1;
    while (i < limit) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == '\'') {
        if (next(i) != '\'') {
          return i + 1;
        }
        i += 2;
      } else {
        i++;
      }
    }
    return limit;
  }

  private int quoted(int open, char close) {
    StringBuilder text = new StringBuilder();
    int i = open + 1;
    while (i < limit) {
      char c = sql.charAt(i);
      if (c == close) {
        if (next(i) != close) {
          addQuoted(open, i + 1, text);
          return i + 1;
        }
        i++;
      }
      text.append(c);
      i++;
    }
    addQuoted(open, limit, text);
    return limit;
  }

  private void addQuoted(int start, int end, StringBuilder text) {
    add(QUOTED, start, end, text.toString().toLowerCase(Locale.ROOT));
  }

  /** The index after the closing {@code $} of a {@code $tag$} opening at i, or -1. */
  private int dollarTagEnd(int i) {
    int j = i + 1;
    if (j < limit && sql.charAt(j) >= '0' && sql.charAt(j) <= '9') {
      return -1;
    }
    while (j < limit) {
      char c = sql.charAt(j);
      if (c == '$') {
        return j + 1;
      }
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return -1;
      }
      j++;
    }
    return -1;
  }

  private int dollarStringEnd(int open, int bodyStart) {
    String tag = sql.substring(open, bodyStart);
    int close = find(tag, bodyStart);
    return close < 0 ? limit : close + tag.length();
  }

  /** Like {@code indexOf}, but never reads past the limit: the end must lie within it too. */
  private int find(String needle, int from) {
    int last = limit - needle.length();
    for (int i = from; i <= last; i++) {
      if (sql.startsWith(needle, i)) {
        return i;
      }
    }
    return -1;
  }

  private int numberEnd(int i) {
    while (i < limit) {
      char c = sql.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '.' || c == '_')) {
        break;
      }
      i++;
    }
    return i;
  }

  private static boolean isWordStart(char c) {
    return Character.isLetter(c) || c == '_' || c == '@' || c == '#';
  }

  private int wordEnd(int i) {
    while (i < limit) {
      char c = sql.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '@' || c == '#')) {
        break;
      }
      i++;
    }
    return i;
  }

  private void add(byte type, int start, int end, String text) {
    if (count == types.length) {
      int size = count * 2;
      types = java.util.Arrays.copyOf(types, size);
      starts = java.util.Arrays.copyOf(starts, size);
      ends = java.util.Arrays.copyOf(ends, size);
      texts = java.util.Arrays.copyOf(texts, size);
    }
    types[count] = type;
    starts[count] = start;
    ends[count] = end;
    texts[count] = text;
    count++;
  }

  /** The character of PUNCT token i, or 0 for any other token or past the end. */
  char punct(int i) {
    return i >= 0 && i < count && types[i] == PUNCT ? sql.charAt(starts[i]) : 0;
  }

  /** Whether token i is the word {@code upper}. */
  boolean is(int i, String upper) {
    return i >= 0 && i < count && types[i] == WORD && texts[i].equals(upper);
  }

  /** The original text of token i in lower case (for names, which keep their own spelling). */
  String lowerText(int i) {
    return types[i] == QUOTED
        ? texts[i]
        : sql.substring(starts[i], ends[i]).toLowerCase(Locale.ROOT);
  }

  boolean isName(int i) {
    return i >= 0 && i < count && (types[i] == WORD || types[i] == QUOTED);
  }

  /**
   * The index after a possibly qualified name starting at j ({@code a.b}, SQL Server's {@code
   * a..b}).
   */
  int nameEnd(int j) {
    if (!isName(j)) {
      return j;
    }
    int k = j + 1;
    while (punct(k) == '.') {
      if (isName(k + 1)) {
        k += 2;
      } else if (punct(k + 1) == '.' && isName(k + 2)) {
        k += 3;
      } else {
        break;
      }
    }
    return k;
  }

  /** The name in tokens [j, end): lower-case, unquoted, parts joined by single dots. */
  String name(int j, int end) {
    if (end == j + 1) {
      return lowerText(j);
    }
    StringBuilder name = new StringBuilder();
    for (int k = j; k < end; k++) {
      if (isName(k)) {
        if (name.length() > 0) {
          name.append('.');
        }
        name.append(lowerText(k));
      }
    }
    return name.toString();
  }

  /** The index of the first token from j that is none of the given upper-case words. */
  int skipWords(int j, String... words) {
    while (j < count && types[j] == WORD && java.util.Arrays.asList(words).contains(texts[j])) {
      j++;
    }
    return j;
  }

  /** The index after the parenthesis that closes the one at j (or the end, if none does). */
  int skipParens(int j) {
    int level = 0;
    for (; j < count; j++) {
      char p = punct(j);
      if (p == '(') {
        level++;
      } else if (p == ')' && --level <= 0) {
        return j + 1;
      }
    }
    return count;
  }

  boolean isQueryStart(int j) {
    return is(j, "SELECT") || is(j, "WITH") || is(j, "VALUES");
  }
}
