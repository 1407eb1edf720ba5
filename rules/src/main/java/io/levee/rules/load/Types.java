package io.levee.rules.load;

import io.levee.rules.model.Mode;
import io.levee.rules.model.Priority;
import io.levee.rules.time.Durations;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scalar types of the rules file that are numbers or words: durations ({@code 250ms}, {@code
 * 2s}, {@code 5m}, {@code 1h}, in nanoseconds), sizes ({@code 256KiB}, {@code 1MiB} or bytes),
 * ratios ({@code 50%} or {@code 0.5}), rates ({@code 50/s}, in permits per second), whole numbers,
 * and enumerations. Patterns, names and codes are in {@link Patterns}.
 */
final class Types {
  static final long MAX_DURATION_NANOS = TimeUnit.DAYS.toNanos(1);

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,9})?)(ms|s|m|h)");
  private static final Pattern RATE = Pattern.compile("(\\d{1,12}(?:\\.\\d{1,9})?)/(s|m|h)");
  private static final Pattern PERCENT = Pattern.compile("(\\d{1,3}(?:\\.\\d{1,9})?)%");
  private static final Pattern DECIMAL = Pattern.compile("\\d{1,12}(?:\\.\\d{1,9})?");
  private static final Pattern WHOLE = Pattern.compile("\\d(?:_?\\d){0,11}");
  private static final Pattern SIZE = Pattern.compile("(\\d(?:_?\\d){0,11})(B|KiB|MiB)?");
  private static final Pattern DECIMAL_SIZE =
      Pattern.compile("\\d(?:_?\\d){0,11}([kKmMgG][bB]|GiB)");

  static final ValueType<String> TEXT =
      ValueType.of(
          "a text",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) {
              return text;
            }
          });

  static final ValueType<Mode> MODE =
      ValueType.of(
          "enforce or monitor",
          new ValueType.Parse<Mode>() {
            @Override
            public Mode parse(String text) throws ValueType.Bad {
              String word = text.toLowerCase(Locale.ROOT);
              if (word.equals("enforce")) {
                return Mode.ENFORCE;
              }
              if (word.equals("monitor")) {
                return Mode.MONITOR;
              }
              throw new ValueType.Bad();
            }
          });

  /** {@code critical}, {@code normal} or {@code sheddable}; a near miss gets a suggestion. */
  static final ValueType<Priority> PRIORITY =
      ValueType.of(
          "critical, normal or sheddable",
          new ValueType.Parse<Priority>() {
            @Override
            public Priority parse(String text) throws ValueType.Bad {
              List<String> words = new ArrayList<String>();
              for (Priority p : Priority.values()) {
                if (p.key.equalsIgnoreCase(text)) {
                  return p;
                }
                words.add(p.key);
              }
              String near = Suggestions.closest(text, words);
              throw new ValueType.Bad(
                  "unknown priority "
                      + Section.quote(text)
                      + (near != null
                          ? "; did you mean `" + near + "`? The priorities are "
                          : "; expected one of: ")
                      + Suggestions.join(words));
            }
          });

  static final ValueType<Boolean> BOOLEAN =
      ValueType.of(
          "true or false",
          new ValueType.Parse<Boolean>() {
            @Override
            public Boolean parse(String text) throws ValueType.Bad {
              if (text.equals("true")) {
                return Boolean.TRUE;
              }
              if (text.equals("false")) {
                return Boolean.FALSE;
              }
              throw new ValueType.Bad();
            }
          });

  private Types() {}

  /** A duration of at least {@code minNanos} (0 allows {@code 0}) and at most one day. */
  static ValueType<Long> duration(final long minNanos) {
    String expected = "a duration like 250ms or 2s" + (minNanos == 0 ? ", or 0" : "");
    return ValueType.of(
        expected,
        new ValueType.Parse<Long>() {
          @Override
          public Long parse(String text) throws ValueType.Bad {
            long nanos = nanos(text);
            if (nanos < minNanos) {
              throw new ValueType.Bad(
                  minNanos == 1
                      ? "must be more than 0, got " + text
                      : "must be at least " + Durations.format(minNanos) + ", got " + text);
            }
            return nanos;
          }
        });
  }

  static long nanos(String text) throws ValueType.Bad {
    if (text.equals("0")) {
      return 0;
    }
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new ValueType.Bad();
    }
    long unit = unitNanos(m.group(2));
    BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
    if (nanos.compareTo(BigDecimal.valueOf(MAX_DURATION_NANOS)) > 0) {
      throw new ValueType.Bad("must be at most 24h, got " + text);
    }
    return nanos.setScale(0, BigDecimal.ROUND_HALF_UP).longValueExact();
  }

  private static long unitNanos(String unit) {
    if (unit.equals("ms")) {
      return TimeUnit.MILLISECONDS.toNanos(1);
    }
    if (unit.equals("s")) {
      return TimeUnit.SECONDS.toNanos(1);
    }
    return unit.equals("m") ? TimeUnit.MINUTES.toNanos(1) : TimeUnit.HOURS.toNanos(1);
  }

  /** A ratio in (0, 1]: {@code 50%} or {@code 0.5}. */
  static final ValueType<Double> RATIO =
      ValueType.of(
          "a ratio like 50% or 0.5",
          new ValueType.Parse<Double>() {
            @Override
            public Double parse(String text) throws ValueType.Bad {
              Matcher percent = PERCENT.matcher(text);
              double value;
              if (percent.matches()) {
                value = Double.parseDouble(percent.group(1)) / 100;
              } else if (DECIMAL.matcher(text).matches()) {
                value = Double.parseDouble(text);
              } else {
                throw new ValueType.Bad();
              }
              if (value <= 0 || value > 1) {
                throw new ValueType.Bad("must be more than 0% and at most 100%, got " + text);
              }
              return value;
            }
          });

  /** A rate {@code N/s}, {@code N/m} or {@code N/h} with N > 0, in permits per second. */
  static final ValueType<Double> RATE_PER_SECOND =
      ValueType.of(
          "a rate like 50/s, 100/m or 1000/h",
          new ValueType.Parse<Double>() {
            @Override
            public Double parse(String text) throws ValueType.Bad {
              Matcher m = RATE.matcher(text);
              if (!m.matches()) {
                throw new ValueType.Bad();
              }
              double n = Double.parseDouble(m.group(1));
              if (n <= 0) {
                throw new ValueType.Bad("must be more than 0, got " + text);
              }
              double seconds = TimeUnit.NANOSECONDS.toSeconds(unitNanos(m.group(2)));
              return n / seconds;
            }
          });

  /** A whole number in [min, max]; {@code 10_000} is read as 10000. */
  static ValueType<Integer> whole(final int min, final int max) {
    return ValueType.of(
        "a whole number",
        new ValueType.Parse<Integer>() {
          @Override
          public Integer parse(String text) throws ValueType.Bad {
            if (!WHOLE.matcher(text).matches()) {
              throw new ValueType.Bad();
            }
            long value = Long.parseLong(text.replace("_", ""));
            if (value < min) {
              throw new ValueType.Bad("must be at least " + min + ", got " + text);
            }
            if (value > max) {
              throw new ValueType.Bad("must be at most " + max + ", got " + text);
            }
            return (int) value;
          }
        });
  }

  /** A number, decimals allowed, of at least {@code min}. */
  static ValueType<Double> number(final double min) {
    return ValueType.of(
        "a number",
        new ValueType.Parse<Double>() {
          @Override
          public Double parse(String text) throws ValueType.Bad {
            if (!DECIMAL.matcher(text).matches()) {
              throw new ValueType.Bad();
            }
            double value = Double.parseDouble(text);
            if (value < min) {
              throw new ValueType.Bad(
                  "must be at least "
                      + BigDecimal.valueOf(min).stripTrailingZeros().toPlainString()
                      + ", got "
                      + text);
            }
            return value;
          }
        });
  }

  /**
   * A size in bytes in [min, max]: plain bytes ({@code 65536}, {@code 65536B}), {@code KiB} (1024
   * bytes) or {@code MiB}. {@code KB}, {@code MB} and the like are refused rather than guessed.
   */
  static ValueType<Integer> size(final int min, final int max) {
    return ValueType.of(
        "a size like 256KiB, 1MiB or 65536 (bytes)",
        new ValueType.Parse<Integer>() {
          @Override
          public Integer parse(String text) throws ValueType.Bad {
            Matcher m = SIZE.matcher(text);
            if (!m.matches()) {
              Matcher decimal = DECIMAL_SIZE.matcher(text);
              if (decimal.matches()) {
                throw new ValueType.Bad(
                    "write sizes in bytes, KiB or MiB (1 KiB = 1024 bytes), got " + text,
                    decimal.start(1));
              }
              throw new ValueType.Bad();
            }
            String unit = m.group(2);
            long factor = "KiB".equals(unit) ? 1024L : "MiB".equals(unit) ? 1024L * 1024 : 1L;
            long bytes = Long.parseLong(m.group(1).replace("_", "")) * factor;
            if (bytes < min) {
              throw new ValueType.Bad("must be at least " + formatSize(min) + ", got " + text);
            }
            if (bytes > max) {
              throw new ValueType.Bad("must be at most " + formatSize(max) + ", got " + text);
            }
            return (int) bytes;
          }
        });
  }

  /** Bytes as the largest whole unit, for messages: 16MiB, 256KiB, 100 bytes. */
  static String formatSize(long bytes) {
    if (bytes > 0 && bytes % (1024L * 1024) == 0) {
      return bytes / (1024L * 1024) + "MiB";
    }
    if (bytes > 0 && bytes % 1024L == 0) {
      return bytes / 1024L + "KiB";
    }
    return bytes + (bytes == 1 ? " byte" : " bytes");
  }
}
