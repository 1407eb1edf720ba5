package io.levee.agent;

import io.levee.bootstrap.Faults;
import io.levee.rules.engine.KeySource;
import io.levee.rules.model.KeySpec;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Reads the key of a per-key rate limit from a servlet request: {@code getRemoteAddr()},
 * {@code getHeader(name)} or {@code getParameter(name)}. The agent cannot link against the servlet
 * API (javax or jakarta, in the application's loaders), so the methods are found by reflection once
 * per request class and kept in a {@link ClassValue}, which lets a redeployed web application's
 * classes go. Methods are taken from the public servlet interfaces where possible, because the
 * container's request class itself may not be public.
 *
 * <p>Note that {@code getParameter} on a form POST makes the container read the request body.
 */
final class ServletKeys implements KeySource {
  private static final ClassValue<Accessors> ACCESSORS =
      new ClassValue<Accessors>() {
        @Override
        protected Accessors computeValue(Class<?> type) {
          return new Accessors(type);
        }
      };

  @Override
  public String key(Object request, KeySpec spec) {
    Faults.at(Faults.KEYS);
    if (request == null || spec == null) {
      return null;
    }
    Accessors accessors = ACCESSORS.get(request.getClass());
    switch (spec.source) {
      case IP:
        return accessors.call(accessors.remoteAddr, request, null);
      case HEADER:
        return accessors.call(accessors.header, request, spec.name);
      case PARAM:
        // From the query string only, parsed here: getParameter would read a form POST's body and
        // fix the request's character encoding before the application's own filters run.
        return queryParameter(accessors.call(accessors.queryString, request, null), spec.name);
      default:
        return null;
    }
  }

  /** The first value of {@code name} in a raw query string, decoded as UTF-8; null if absent. */
  static String queryParameter(String query, String name) {
    if (query == null || name == null) {
      return null;
    }
    int start = 0;
    while (start <= query.length()) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = query.length();
      }
      int eq = query.indexOf('=', start);
      int keyEnd = eq >= 0 && eq < end ? eq : end;
      if (keyEnd - start == name.length() && query.startsWith(name, start)) {
        return keyEnd == end ? "" : decode(query.substring(keyEnd + 1, end));
      }
      start = end + 1;
    }
    return null;
  }

  private static String decode(String value) {
    try {
      return java.net.URLDecoder.decode(value, "UTF-8");
    } catch (Exception e) {
      return value;
    }
  }

  /** The three methods of one request class; null where the class has none. */
  private static final class Accessors {
    final Method remoteAddr;
    final Method header;
    final Method queryString;

    Accessors(Class<?> type) {
      remoteAddr = find(type, "getRemoteAddr");
      header = find(type, "getHeader", String.class);
      queryString = find(type, "getQueryString");
    }

    String call(Method method, Object request, String name) {
      if (method == null) {
        return null;
      }
      try {
        Object value = name == null ? method.invoke(request) : method.invoke(request, name);
        return value instanceof String ? (String) value : null;
      } catch (Exception e) {
        return null;
      }
    }

    private static Method find(Class<?> type, String name, Class<?>... parameters) {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        Method m = fromPublicInterfaces(c, name, parameters);
        if (m != null) {
          return m;
        }
      }
      try {
        Method m = type.getMethod(name, parameters);
        m.setAccessible(true);
        return m;
      } catch (Exception e) {
        return null;
      }
    }

    private static Method fromPublicInterfaces(Class<?> c, String name, Class<?>[] parameters) {
      for (Class<?> i : c.getInterfaces()) {
        if (Modifier.isPublic(i.getModifiers())) {
          try {
            return i.getMethod(name, parameters);
          } catch (NoSuchMethodException e) {
            // not declared by this interface or its parents; try the next one
          }
        }
        Method m = fromPublicInterfaces(i, name, parameters);
        if (m != null) {
          return m;
        }
      }
      return null;
    }
  }
}
