package io.levee.rules.load;

import io.levee.rules.match.ClassPattern;
import io.levee.rules.match.JdbcUrlPattern;
import io.levee.rules.match.MethodNamePattern;
import io.levee.rules.match.PathPattern;
import io.levee.rules.match.PatternException;
import io.levee.rules.match.TablePattern;
import io.levee.rules.match.UrlPattern;
import io.levee.rules.model.KeySpec;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.Operation;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The scalar types of the rules file that are names, codes and patterns. Names and codes are
 * checked for their form here; a pattern is checked by compiling it with its matcher.
 */
final class Patterns {
  static final List<String> METHODS =
      Arrays.asList("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern SQL_STATE = Pattern.compile("[0-9A-Z]{5}");
  private static final Pattern SQL_STATE_PATTERN = Pattern.compile("[0-9A-Z]{5}|[0-9A-Z]{0,4}\\*");
  private static final Pattern CLASS_NAME =
      Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");
  private static final Pattern STATUS_CLASS = Pattern.compile("[1-5][xX][xX]");
  private static final Pattern STATUS = Pattern.compile("\\d{3}");

  /** A JWT claim name: JSON allows any, these are the ones a rules file can name plainly. */
  private static final Pattern CLAIM = Pattern.compile("[A-Za-z0-9_.:/-]{1,64}");

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0A-\\x1F\\x7F]");

  private Patterns() {}

  static final ValueType<String> NAME_TYPE =
      ValueType.of("a name of 1 to 64 letters, digits, '.', '_' or '-'", matching(NAME));

  static final ValueType<String> METHOD =
      ValueType.of(
          "an HTTP method (" + Suggestions.join(METHODS) + ")",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              String upper = text.toUpperCase(Locale.ROOT);
              if (!METHODS.contains(upper)) {
                throw new ValueType.Bad();
              }
              return upper;
            }
          });

  static final ValueType<Operation> OPERATION =
      ValueType.of(
          "an operation (SELECT, INSERT, UPDATE, DELETE, CALL, DDL, OTHER or CONNECT)",
          new ValueType.Parse<Operation>() {
            @Override
            public Operation parse(String text) throws ValueType.Bad {
              for (Operation o : Operation.values()) {
                if (o.name().equalsIgnoreCase(text)) {
                  return o;
                }
              }
              throw new ValueType.Bad();
            }
          });

  static final ValueType<String> PATH_PATTERN =
      ValueType.of(
          "a path pattern starting with /, like /shop/**",
          new Compiles() {
            @Override
            void compile(String text) {
              PathPattern.compile(text);
            }
          });

  static final ValueType<String> URL_PATTERN =
      ValueType.of(
          "a URL pattern scheme://host[:port]/path, like https://pay.example.com/v1/**"
              + " (*:// for any scheme)",
          new Compiles() {
            @Override
            void compile(String text) {
              UrlPattern.compile(text);
            }
          });

  static final ValueType<String> JDBC_URL_PATTERN =
      ValueType.of(
          "a JDBC URL pattern starting with jdbc:, like jdbc:postgresql://*/orders*",
          new Compiles() {
            @Override
            void compile(String text) {
              JdbcUrlPattern.compile(text);
            }
          });

  static final ValueType<String> TABLE_PATTERN =
      ValueType.of(
          "a table name pattern like orders or order_*",
          new Compiles() {
            @Override
            void compile(String text) {
              TablePattern.compile(text);
            }
          });

  static final ValueType<String> CLASS_PATTERN =
      ValueType.of(
          "a class name pattern like com.acme.pricing.PriceClient or com.acme.**.*Client",
          new Compiles() {
            @Override
            void compile(String text) {
              ClassPattern.compile(text);
            }
          });

  static final ValueType<String> METHOD_NAME_PATTERN =
      ValueType.of(
          "a method name pattern like quote or find*",
          new Compiles() {
            @Override
            void compile(String text) {
              MethodNamePattern.compile(text);
            }
          });

  static final ValueType<String> SQL_REGEX =
      ValueType.of(
          "a regular expression",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              try {
                Pattern.compile(text);
              } catch (PatternSyntaxException e) {
                throw new ValueType.Bad(
                    "not a valid regular expression: "
                        + e.getDescription()
                        + " near index "
                        + e.getIndex()
                        + " of "
                        + Section.quote(text));
              }
              return text;
            }
          });

  static final ValueType<String> SQL_STATE_TYPE =
      ValueType.of("a SQLState of 5 digits or capital letters, like 53000", matching(SQL_STATE));

  static final ValueType<String> SQL_STATE_PATTERN_TYPE =
      ValueType.of(
          "a SQLState or a prefix pattern, like 40001 or 23*", matching(SQL_STATE_PATTERN));

  static final ValueType<String> CLASS_NAME_TYPE =
      ValueType.of(
          "an exception class name like java.net.SocketTimeoutException", matching(CLASS_NAME));

  static final ValueType<String> ANNOTATION_NAME_TYPE =
      ValueType.of(
          "an annotation's class name like org.springframework.stereotype.Service",
          matching(CLASS_NAME));

  static final ValueType<String> EXCEPTION_NAME_TYPE =
      ValueType.of(
          "an exception class name like java.util.concurrent.RejectedExecutionException",
          matching(CLASS_NAME));

  static final ValueType<String> FAILURE_STATUS =
      ValueType.of(
          "a status code 100-599 or a class like 5xx",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              if (STATUS_CLASS.matcher(text).matches()) {
                return text.toLowerCase(Locale.ROOT);
              }
              return String.valueOf(code(text, 100, 599));
            }
          });

  static final ValueType<String> HEADER_NAME =
      ValueType.of("a header name like X-Reason", matching(TOKEN));

  static final ValueType<String> HEADER_VALUE =
      ValueType.of(
          "a header value on one line",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              if (CONTROL.matcher(text).find()) {
                throw new ValueType.Bad(
                    "a header value must be one line without control characters");
              }
              return text;
            }
          });

  static final ValueType<KeySpec> KEY =
      ValueType.of(
          "ip, header:NAME, param:NAME or jwt:CLAIM",
          new ValueType.Parse<KeySpec>() {
            @Override
            public KeySpec parse(String text) throws ValueType.Bad {
              if (text.equals("ip")) {
                return new KeySpec(KeySpec.Source.IP, null);
              }
              if (text.startsWith("header:") && TOKEN.matcher(text.substring(7)).matches()) {
                return new KeySpec(KeySpec.Source.HEADER, text.substring(7));
              }
              if (text.startsWith("param:")
                  && text.length() > 6
                  && !text.substring(6).contains(" ")) {
                return new KeySpec(KeySpec.Source.PARAM, text.substring(6));
              }
              if (text.startsWith("jwt:") && CLAIM.matcher(text.substring(4)).matches()) {
                return new KeySpec(KeySpec.Source.JWT, text.substring(4));
              }
              throw new ValueType.Bad();
            }
          });

  /** A pattern of {@code rate-limit.overrides.keys}: a key, where {@code *} stands for any run. */
  static final ValueType<String> KEY_PATTERN =
      ValueType.of(
          "a key or a pattern like premium-*",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              if (text.isEmpty() || text.length() > 256) {
                throw new ValueType.Bad("a key pattern has 1 to 256 characters");
              }
              return text;
            }
          });

  static final ValueType<Integer> RETRY_AFTER =
      ValueType.of(
          "auto, none or a duration like 2s",
          new ValueType.Parse<Integer>() {
            @Override
            public Integer parse(String text) throws ValueType.Bad {
              if (text.equals("auto")) {
                return OnBlock.RETRY_AFTER_AUTO;
              }
              if (text.equals("none")) {
                return OnBlock.RETRY_AFTER_NONE;
              }
              long nanos = Types.nanos(text);
              if (nanos == 0) {
                throw new ValueType.Bad(
                    "must be more than 0 (use none to send no Retry-After), got " + text);
              }
              long second = TimeUnit.SECONDS.toNanos(1);
              return (int) ((nanos + second - 1) / second);
            }
          });

  /** An HTTP status code in [min, max]. */
  static ValueType<Integer> status(final int min, final int max) {
    return ValueType.of(
        "an HTTP status code",
        new ValueType.Parse<Integer>() {
          @Override
          public Integer parse(String text) throws ValueType.Bad {
            return code(text, min, max);
          }
        });
  }

  private static int code(String text, int min, int max) throws ValueType.Bad {
    if (!STATUS.matcher(text).matches()) {
      throw new ValueType.Bad();
    }
    int code = Integer.parseInt(text);
    if (code < min || code > max) {
      throw new ValueType.Bad("must be between " + min + " and " + max + ", got " + text);
    }
    return code;
  }

  /**
   * A pattern is what its matcher compiles, so that what is checked and what is matched are one
   * grammar; the matcher's error, and the character it names, become the loader's.
   */
  private abstract static class Compiles implements ValueType.Parse<String> {
    abstract void compile(String text);

    @Override
    public final String parse(String text) throws ValueType.Bad {
      try {
        compile(text);
      } catch (PatternException e) {
        throw new ValueType.Bad(
            e.problem() + ", " + e.hint() + ", got " + Section.quote(text), e.offset());
      }
      return text;
    }
  }

  private static ValueType.Parse<String> matching(final Pattern pattern) {
    return new ValueType.Parse<String>() {
      @Override
      public String parse(String text) throws ValueType.Bad {
        if (!pattern.matcher(text).matches()) {
          throw new ValueType.Bad();
        }
        return text;
      }
    };
  }
}
