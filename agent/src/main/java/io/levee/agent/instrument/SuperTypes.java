package io.levee.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Which of the target APIs a type extends or implements, remembered by type name for each class
 * loader, so the class-load path of an application stays cheap.
 *
 * <p>Why: the JVM loads thousands of classes while an application starts, and nearly all of them
 * must be waved through. Each is judged from its class-file header ({@link ClassHeader}); an
 * ancestor is read from its class file through the loader once, and a subclass stops its walk at
 * its first known ancestor (their common ancestors, Object and a container's base classes, would
 * otherwise be read again for every class). Only names and bit masks are kept, never a class file
 * or a description, so a loader that goes away takes its entries with it; a loader's map is dropped
 * when it grows past {@value #MAX_TYPES} names, which bounds memory.
 *
 * <p>What it reads, by the {@link Weaver}'s rules: the JDK's own types are answered from {@link
 * JdkTypes}, never from their class files; other ancestors are read through an application's class
 * loader only, never through the boot or platform loader (whose class files sit behind the JDK's
 * own protocol handlers). When neither answers, the mask is {@value #UNKNOWN} and the class is left
 * as it is.
 *
 * <p>A name seen from one loader always means the same class, and a retransformation cannot change
 * a class's super types, so an entry never goes stale.
 *
 * <p>Concurrency: classes load on many threads; the per-loader maps are concurrent and the map of
 * loaders is guarded by itself. Two threads may describe the same type at once; both store the same
 * value.
 */
final class SuperTypes {
  /** Every API an integration matches on; a new integration that matches another adds it here. */
  static final String[] APIS = {
    "java.net.HttpURLConnection",
    "java.sql.Driver",
    "javax.sql.DataSource",
    "java.sql.Connection",
    "java.sql.Statement",
    "javax.servlet.Servlet",
    "javax.servlet.Filter",
    "jakarta.servlet.Servlet",
    "jakarta.servlet.Filter",
    // The JDK's HttpURLConnection implementation, whose subclasses (not HttpsURLConnectionImpl,
    // which only delegates to one) are the http integration's targets.
    "sun.net.www.protocol.http.HttpURLConnection",
    // OkHttp 3.14 to 5.x: the first of OkHttp's own interceptors, which decides for every call.
    "okhttp3.internal.http.RetryAndFollowUpInterceptor",
    // Apache HttpClient 4 and 5 classic: the clients whose doExecute decides, and the contexts
    // their timeouts are read from.
    "org.apache.http.impl.client.CloseableHttpClient",
    "org.apache.http.client.protocol.HttpClientContext",
    "org.apache.hc.client5.http.impl.classic.CloseableHttpClient",
    "org.apache.hc.client5.http.protocol.HttpClientContext",
    // java.net.http.HttpClient's implementation and the request HttpRequest.newBuilder() builds:
    // the JDK's own classes, matched by name (jdkhttp integration).
    "jdk.internal.net.http.HttpClientImpl",
    "jdk.internal.net.http.ImmutableHttpRequest",
    // Apache HttpClient 5's async client: the client, the future it returns, the response
    // consumers, and the context and connection that carry the read timeout.
    "org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient",
    "org.apache.hc.core5.concurrent.BasicFuture",
    "org.apache.hc.core5.http.nio.AsyncResponseConsumer",
    "org.apache.hc.client5.http.nio.AsyncConnectionEndpoint",
    // Tomcat's HTTP/1.1 processor, which decides whether a connection stays open after a response
    // (servlet integration).
    "org.apache.coyote.http11.Http11Processor",
  };

  static final SuperTypes SHARED = new SuperTypes();

  private static final int MAX_TYPES = 50000;

  /** Deeper than any real hierarchy: a walk this deep is a cycle among broken class files. */
  private static final int MAX_DEPTH = 64;

  private static final int UNKNOWN = -1;

  private final MasksByLoader byLoader = new MasksByLoader(MAX_TYPES);

  /** The bit of {@code api} in a mask. */
  static int bit(String api) {
    for (int i = 0; i < APIS.length; i++) {
      if (APIS[i].equals(api)) {
        return 1 << i;
      }
    }
    throw new IllegalArgumentException(api + " is not in SuperTypes.APIS");
  }

  /**
   * The bits of the APIs the class {@code name} that {@code loader} is defining from a class file
   * with {@code header}, its ancestors read from their class files through the loader: no type
   * description is built. {@value #UNKNOWN} if an ancestor's class file cannot be found or read.
   */
  int mask(String name, ClassHeader header, ClassLoader loader) {
    if (JdkTypes.isJdk(name)) {
      return JdkTypes.mask(name);
    }
    Map<String, Integer> known = byLoader.of(loader);
    Integer cached = known.get(name);
    if (cached != null) {
      return cached;
    }
    return mask(name, header, loader, known, 0);
  }

  private int mask(
      String name, ClassHeader header, ClassLoader loader, Map<String, Integer> known, int depth) {
    int mask = own(name);
    if (header.superName != null) {
      mask = or(mask, byName(header.superName, loader, known, depth + 1));
    }
    for (int i = 0; i < header.interfaces.length && mask != UNKNOWN; i++) {
      mask = or(mask, byName(header.interfaces[i], loader, known, depth + 1));
    }
    if (mask != UNKNOWN) {
      byLoader.put(known, name, mask);
    }
    return mask;
  }

  private int byName(String name, ClassLoader loader, Map<String, Integer> known, int depth) {
    if (JdkTypes.isJdk(name)) {
      return JdkTypes.mask(name);
    }
    Integer cached = known.get(name);
    if (cached != null) {
      return cached;
    }
    if (depth > MAX_DEPTH || !readable(loader)) {
      return UNKNOWN;
    }
    byte[] bytes = classFile(loader, name);
    ClassHeader header = bytes == null ? null : ClassHeader.read(bytes);
    return header == null ? UNKNOWN : mask(name, header, loader, known, depth);
  }

  private static int or(int mask, int more) {
    return mask == UNKNOWN || more == UNKNOWN ? UNKNOWN : mask | more;
  }

  /**
   * Whether class files may be read through {@code loader} from inside a transform: not through the
   * boot loader or the platform loader, which read them through the JDK's {@code jrt:} handler.
   */
  private static boolean readable(ClassLoader loader) {
    return !JdkTypes.isJdkLoader(loader);
  }

  private static byte[] classFile(ClassLoader loader, String name) {
    String path = name.replace('.', '/') + ".class";
    InputStream in = null;
    try {
      in = loader.getResourceAsStream(path);
      return in == null ? null : drain(in);
    } catch (IOException e) {
      return null;
    } finally {
      closeQuietly(in);
    }
  }

  private static byte[] drain(InputStream in) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(4096);
    byte[] buffer = new byte[4096];
    int n;
    while ((n = in.read(buffer)) != -1) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static void closeQuietly(InputStream in) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException ignored) {
        // Read already; nothing to lose.
      }
    }
  }

  private static int own(String name) {
    for (int i = 0; i < APIS.length; i++) {
      if (APIS[i].equals(name)) {
        return 1 << i;
      }
    }
    return 0;
  }
}
