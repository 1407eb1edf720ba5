package io.levee.agent.log;

import io.micrometer.common.util.internal.logging.InternalLogger;
import io.micrometer.common.util.internal.logging.InternalLoggerFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Locale;

/**
 * Routes Micrometer's internal logging into the agent's log, warnings and errors only. Left alone,
 * Micrometer logs through the application's SLF4J if it can see one, else through JUL, whose
 * initialisation breaks some containers; both would put Levee's lines in the application's logs. In
 * the packaged agent this is the relocated copy's factory, so the application's own Micrometer
 * keeps its own. Must be installed before any Micrometer class that keeps a logger is loaded.
 *
 * <p>The logger is a dynamic proxy because {@link InternalLogger} has forty methods that differ
 * only in level and arguments; SLF4J-style {@code {}} placeholders are filled in, a trailing
 * throwable is appended.
 */
public final class MicrometerLog extends InternalLoggerFactory {
  private final EventLog log;

  private MicrometerLog(EventLog log) {
    this.log = log;
  }

  public static void install(EventLog log) {
    InternalLoggerFactory.setDefaultFactory(new MicrometerLog(log));
  }

  @Override
  protected InternalLogger newInstance(String name) {
    return (InternalLogger)
        Proxy.newProxyInstance(
            InternalLogger.class.getClassLoader(),
            new Class<?>[] {InternalLogger.class},
            new Handler(name, log));
  }

  private static final class Handler implements InvocationHandler {
    private final String name;
    private final EventLog log;

    Handler(String name, EventLog log) {
      this.name = name;
      this.log = log;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      String m = method.getName();
      if (m.equals("name") || m.equals("toString")) {
        return name;
      }
      if (m.equals("hashCode")) {
        return System.identityHashCode(proxy);
      }
      if (m.equals("equals")) {
        return proxy == args[0];
      }
      if (m.startsWith("is")) {
        return m.equals("isWarnEnabled")
            || m.equals("isErrorEnabled")
            || (m.equals("isEnabled") && severe(args[0]));
      }
      if (args == null || args.length == 0) {
        return null;
      }
      int first = 0;
      String level = m;
      if (m.equals("log")) {
        level = String.valueOf(args[0]).toLowerCase(Locale.ROOT);
        first = 1;
      }
      if (level.equals("warn") || level.equals("error")) {
        String line = "micrometer " + name + ": " + format(args, first);
        if (level.equals("warn")) {
          log.warn(line);
        } else {
          log.error(line);
        }
      }
      return null;
    }

    private static boolean severe(Object level) {
      String l = String.valueOf(level);
      return l.equals("WARN") || l.equals("ERROR");
    }

    static String format(Object[] args, int first) {
      if (first >= args.length) {
        return "";
      }
      Object head = args[first];
      if (head instanceof Throwable) {
        return head.toString();
      }
      StringBuilder text = new StringBuilder(String.valueOf(head));
      Object[] rest = new Object[0];
      if (args.length > first + 1) {
        Object tail = args[first + 1];
        rest = tail instanceof Object[] ? (Object[]) tail : copy(args, first + 1);
      }
      int from = 0;
      for (Object arg : rest) {
        int at = text.indexOf("{}", from);
        if (at < 0 || (arg instanceof Throwable && arg == rest[rest.length - 1])) {
          text.append(": ").append(arg);
        } else {
          String value = String.valueOf(arg);
          text.replace(at, at + 2, value);
          from = at + value.length();
        }
      }
      return text.toString();
    }

    private static Object[] copy(Object[] args, int from) {
      Object[] out = new Object[args.length - from];
      System.arraycopy(args, from, out, 0, out.length);
      return out;
    }
  }
}
