package io.levee.rules.load;

import io.levee.rules.model.ClusterSettings;
import io.levee.rules.model.RedisAddress;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@code settings.cluster} (SPEC §5.3). */
final class ClusterReader {
  static final String[] CLUSTER = {"redis", "name", "sync", "on-failure"};

  private static final long MIN_SYNC_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long MAX_SYNC_NANOS = TimeUnit.SECONDS.toNanos(10);

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** What the environment gives for a name; the loader's tests replace it. */
  interface Environment {
    String get(String name);
  }

  static Environment environment =
      new Environment() {
        @Override
        public String get(String name) {
          return System.getenv(name);
        }
      };

  static final ValueType<RedisAddress> REDIS =
      ValueType.of(
          "a Redis address like redis://127.0.0.1:6379/0, or rediss:// for TLS",
          new ValueType.Parse<RedisAddress>() {
            @Override
            public RedisAddress parse(String text) throws ValueType.Bad {
              return address(text);
            }
          });

  private static final ValueType<ClusterSettings.OnFailure> ON_FAILURE =
      ValueType.of(
          "local or open",
          new ValueType.Parse<ClusterSettings.OnFailure>() {
            @Override
            public ClusterSettings.OnFailure parse(String text) throws ValueType.Bad {
              String word = text.toLowerCase(Locale.ROOT);
              if (word.equals("local")) {
                return ClusterSettings.OnFailure.LOCAL;
              }
              if (word.equals("open")) {
                return ClusterSettings.OnFailure.OPEN;
              }
              throw new ValueType.Bad();
            }
          });

  private static final ValueType<String> CLUSTER_NAME =
      ValueType.of(
          "a name of letters, digits, '.', '_' or '-', at most 64",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              if (!NAME.matcher(text).matches()) {
                throw new ValueType.Bad();
              }
              return text;
            }
          });

  private static final ValueType<Long> SYNC =
      ValueType.of(
          "a duration from 20ms to 10s, like 100ms",
          new ValueType.Parse<Long>() {
            @Override
            public Long parse(String text) throws ValueType.Bad {
              long nanos = Types.nanos(text);
              if (nanos < MIN_SYNC_NANOS || nanos > MAX_SYNC_NANOS) {
                throw new ValueType.Bad("must be from 20ms to 10s, got " + text);
              }
              return nanos;
            }
          });

  private ClusterReader() {}

  /** {@code source}: the rules file, whose name is the default cluster name. */
  static ClusterSettings read(Section s, String source) {
    RedisAddress redis =
        s.require("redis", REDIS, "where the shared budgets live, like redis://127.0.0.1:6379/0");
    String name = s.get("name", CLUSTER_NAME, defaultName(source));
    long sync = s.get("sync", SYNC, ClusterSettings.DEFAULT_SYNC_NANOS);
    ClusterSettings.OnFailure onFailure =
        s.get("on-failure", ON_FAILURE, ClusterSettings.OnFailure.LOCAL);
    return redis == null ? null : new ClusterSettings(redis, name, sync, onFailure);
  }

  /** The rules file's name without its folder and extension, as a cluster name. */
  static String defaultName(String source) {
    String file = source == null ? "" : source.replace('\\', '/');
    file = file.substring(file.lastIndexOf('/') + 1);
    int dot = file.lastIndexOf('.');
    if (dot > 0) {
      file = file.substring(0, dot);
    }
    String name = file.replaceAll("[^A-Za-z0-9._-]", "-");
    if (name.length() > 64) {
      name = name.substring(0, 64);
    }
    return name.isEmpty() ? "levee" : name;
  }

  /**
   * {@code redis[s]://[[user]:password@]host[:port][/database]}, references resolved. A user part
   * without a colon is the password, as {@code redis-cli} reads it: taken for a user name, a
   * password would be shown wherever the address is.
   */
  static RedisAddress address(String written) throws ValueType.Bad {
    String text = resolve(written, userInfoEnd(written));
    // Errors quote a part of the address only when it holds no environment value.
    boolean quote = !written.contains("${");
    boolean tls;
    String rest;
    if (text.startsWith("redis://")) {
      tls = false;
      rest = text.substring(8);
    } else if (text.startsWith("rediss://")) {
      tls = true;
      rest = text.substring(9);
    } else {
      throw new ValueType.Bad(
          "a Redis address starts with redis:// (or rediss:// for TLS)"
              + (quote ? ", got " + scheme(written) : ""));
    }
    String user = null;
    String password = null;
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      String info = rest.substring(0, at);
      rest = rest.substring(at + 1);
      int colon = info.indexOf(':');
      user = colon < 0 ? null : decode(info.substring(0, colon));
      password = decode(colon < 0 ? info : info.substring(colon + 1));
      if (user != null && user.isEmpty()) {
        user = null;
      }
      if (password.isEmpty()) {
        password = null;
      }
    }
    int database = 0;
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      String db = rest.substring(slash + 1);
      rest = rest.substring(0, slash);
      if (!db.isEmpty()) {
        if (!db.matches("\\d{1,5}")) {
          throw new ValueType.Bad(
              "the database after the last / is a number like 0"
                  + got(quote && db.matches("\\d{1,12}"), db));
        }
        database = Integer.parseInt(db);
      }
    }
    String host;
    String port = null;
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      if (close < 0) {
        throw new ValueType.Bad("an IPv6 host needs its closing ], as in redis://[::1]:6379");
      }
      host = rest.substring(1, close);
      String after = rest.substring(close + 1);
      if (after.startsWith(":")) {
        port = after.substring(1);
      } else if (!after.isEmpty()) {
        throw new ValueType.Bad("expected :PORT after the IPv6 host" + got(quote, after));
      }
    } else {
      int colon = rest.lastIndexOf(':');
      host = colon < 0 ? rest : rest.substring(0, colon);
      port = colon < 0 ? null : rest.substring(colon + 1);
    }
    if (host.isEmpty()) {
      throw new ValueType.Bad("the address names no host, as in redis://127.0.0.1:6379/0");
    }
    int portNumber = RedisAddress.DEFAULT_PORT;
    if (port != null) {
      if (!port.matches("\\d{1,5}")
          || Integer.parseInt(port) < 1
          || Integer.parseInt(port) > 65535) {
        throw new ValueType.Bad(
            "the port is a number from 1 to 65535" + got(quote && port.matches("\\d{1,9}"), port));
      }
      portNumber = Integer.parseInt(port);
    }
    return new RedisAddress(tls, user, password, host, portNumber, database);
  }

  /**
   * {@code %XX} escapes decoded as UTF-8, as in any URL's user part: a password holding {@code @},
   * {@code :} or {@code /} is written {@code %40}, {@code %3A}, {@code %2F}. Anything else, a
   * {@code +} included, stays as written.
   */
  static String decode(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int plain = 0;
    for (int i = 0; i + 2 < text.length(); i++) {
      int high = Character.digit(text.charAt(i + 1), 16);
      int low = Character.digit(text.charAt(i + 2), 16);
      if (text.charAt(i) == '%' && high >= 0 && low >= 0) {
        byte[] before = text.substring(plain, i).getBytes(StandardCharsets.UTF_8);
        bytes.write(before, 0, before.length);
        bytes.write(high * 16 + low);
        i += 2;
        plain = i + 1;
      }
    }
    byte[] rest = text.substring(plain).getBytes(StandardCharsets.UTF_8);
    bytes.write(rest, 0, rest.length);
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  /**
   * Every byte but letters, digits and {@code -._~} as {@code %XX}: what {@link #decode} undoes.
   */
  static String encode(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%')
            .append(Character.forDigit(c >> 4, 16))
            .append(Character.forDigit(c & 15, 16));
      }
    }
    return out.toString();
  }

  /** Where the user part written in the file ends (its {@code @}), or -1 when it has none. */
  private static int userInfoEnd(String written) {
    boolean url = written.startsWith("redis://") || written.startsWith("rediss://");
    return url ? written.lastIndexOf('@') : -1;
  }

  /**
   * Replaces each {@code ${NAME}} by that environment variable. A value that stands in the user
   * part written in the file (before {@code userInfoEnd}) is percent-encoded here, so that the
   * decoding of that part gives it back as it is: a generated password holding {@code %2F} or
   * {@code @} is the password, not an escape or the end of it.
   */
  private static String resolve(String text, int userInfoEnd) throws ValueType.Bad {
    Matcher m = REFERENCE.matcher(text);
    StringBuffer out = new StringBuffer();
    while (m.find()) {
      String value = environment.get(m.group(1));
      if (value == null) {
        throw new ValueType.Bad(
            "the environment variable " + m.group(1) + " is not set in this JVM", m.start());
      }
      if (m.start() < userInfoEnd) {
        value = encode(value);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The scheme written, {@code http://}, or nothing: never a user or password. */
  private static String scheme(String written) {
    Matcher m = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]{0,15}://").matcher(written);
    return m.find() ? Section.quote(m.group()) : "something else";
  }

  private static String got(boolean quote, String part) {
    return quote ? ", got " + part : "";
  }
}
