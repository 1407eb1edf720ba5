package io.levee.agent.instrument;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The JDK's own types, as the {@link Weaver} may know them: which packages are the JDK's, and which
 * of its types are or extend a target API, from a table rather than from their class files.
 *
 * <p>Why a table: a JDK class file can only be read through the runtime image's {@code jrt:}
 * protocol handler (or, on Java 8, the boot class path's {@code jar:} one), and a transform may be
 * running inside the definition of one of that handler's own classes: reading through it then needs
 * the class being defined, the JVM throws {@code ClassCircularityError}, and caches it in the
 * application's constant pool, so the application, not the agent, fails. The JDK's types that
 * matter are few (every type of the image that reaches an API of {@link SuperTypes#APIS}, {@code
 * JdkTypesTest} checks the table against the image of the JDK it runs on, 17 and 25); every other
 * JDK type reaches none.
 *
 * <p>The JDK's packages are read once, when the agent starts, outside any transform: those of the
 * runtime image's modules (Java 9+), or those of the jars on the boot class path and in the
 * extension directories (Java 8).
 */
public final class JdkTypes {
  /** Each JDK type that is or extends a target API, and the APIs it reaches. */
  private static final String[][] TARGETS = {
    {"java.net.HttpURLConnection", "java.net.HttpURLConnection"},
    {"javax.net.ssl.HttpsURLConnection", "java.net.HttpURLConnection"},
    {"sun.net.www.protocol.https.HttpsURLConnectionImpl", "java.net.HttpURLConnection"},
    {
      "sun.net.www.protocol.http.HttpURLConnection",
      "java.net.HttpURLConnection",
      "sun.net.www.protocol.http.HttpURLConnection"
    },
    {
      "sun.net.www.protocol.https.AbstractDelegateHttpsURLConnection",
      "java.net.HttpURLConnection",
      "sun.net.www.protocol.http.HttpURLConnection"
    },
    {
      "sun.net.www.protocol.https.DelegateHttpsURLConnection",
      "java.net.HttpURLConnection",
      "sun.net.www.protocol.http.HttpURLConnection"
    },
    {"java.sql.Driver", "java.sql.Driver"},
    {"java.sql.Connection", "java.sql.Connection"},
    {"java.sql.Statement", "java.sql.Statement"},
    {"java.sql.PreparedStatement", "java.sql.Statement"},
    {"java.sql.CallableStatement", "java.sql.Statement"},
    {"javax.sql.DataSource", "javax.sql.DataSource"},
    {"jdk.internal.net.http.HttpClientImpl", "jdk.internal.net.http.HttpClientImpl"},
    {"jdk.internal.net.http.ImmutableHttpRequest", "jdk.internal.net.http.ImmutableHttpRequest"},
  };

  private static final Map<String, Integer> MASKS = masks();

  /** The table's names as the JVM hands them to a transformer ({@code java/sql/Driver}). */
  private static final Set<String> INTERNAL_NAMES = internalNames();

  private static volatile Set<String> packages;

  /**
   * The platform loader (Java 9+; the extension loader on Java 8): the JDK's, like the boot loader.
   */
  private static final ClassLoader PLATFORM = platformLoader();

  private JdkTypes() {}

  /**
   * Reads the JDK's packages, if not read before. The agent calls it when it starts, before its
   * transformer is installed: it may load classes, which a transform must not.
   */
  static void load() {
    if (packages == null) {
      packages = Collections.unmodifiableSet(readPackages());
    }
  }

  /**
   * Whether {@code name} (a binary name) is the JDK's own: its package is one of the JDK's. An
   * application's class loader cannot define a class in such a package, so the name alone tells.
   */
  public static boolean isJdk(String name) {
    Set<String> known = packages;
    if (known == null) {
      // Not loaded (a test that never started an agent): only java.* is the JDK's for certain.
      return name.startsWith("java.");
    }
    int dot = name.lastIndexOf('.');
    return dot > 0 && known.contains(name.substring(0, dot));
  }

  /** Whether {@code loader} is the JDK's own: the boot loader (null) or the platform loader. */
  public static boolean isJdkLoader(ClassLoader loader) {
    return loader == null || loader == PLATFORM;
  }

  /**
   * The {@link SuperTypes} bits of the APIs the JDK type {@code name} is or extends; 0 for most.
   */
  static int mask(String name) {
    Integer mask = MASKS.get(name);
    return mask == null ? 0 : mask;
  }

  /**
   * Whether the table names {@code internalName} ({@code
   * sun/net/www/protocol/http/HttpURLConnection}).
   */
  static boolean inTable(String internalName) {
    return INTERNAL_NAMES.contains(internalName);
  }

  /** The names of the table, for the test that checks it against the runtime image. */
  static Set<String> names() {
    return MASKS.keySet();
  }

  private static Map<String, Integer> masks() {
    Map<String, Integer> masks = new HashMap<String, Integer>();
    for (String[] row : TARGETS) {
      int mask = 0;
      for (int i = 1; i < row.length; i++) {
        mask |= SuperTypes.bit(row[i]);
      }
      masks.put(row[0], mask);
    }
    return Collections.unmodifiableMap(masks);
  }

  private static ClassLoader platformLoader() {
    ClassLoader system = ClassLoader.getSystemClassLoader();
    return system == null ? null : system.getParent();
  }

  private static Set<String> internalNames() {
    Set<String> names = new HashSet<String>();
    for (String[] row : TARGETS) {
      names.add(row[0].replace('.', '/'));
    }
    return Collections.unmodifiableSet(names);
  }

  private static Set<String> readPackages() {
    Set<String> found = new HashSet<String>();
    try {
      // ModuleFinder.ofSystem(): every module of the runtime image, including the tools' modules
      // the application loader defines (jdk.compiler, jdk.javadoc), whose class files are behind
      // the jrt: handler too. The JVM has read their descriptors already while it started.
      Class<?> finderType = Class.forName("java.lang.module.ModuleFinder");
      Class<?> referenceType = Class.forName("java.lang.module.ModuleReference");
      Class<?> descriptorType = Class.forName("java.lang.module.ModuleDescriptor");
      Object finder = finderType.getMethod("ofSystem").invoke(null);
      Method descriptor = referenceType.getMethod("descriptor");
      Method packages = descriptorType.getMethod("packages");
      for (Object module : (Set<?>) finderType.getMethod("findAll").invoke(finder)) {
        for (Object pkg : (Collection<?>) packages.invoke(descriptor.invoke(module))) {
          found.add((String) pkg);
        }
      }
      return found;
    } catch (ClassNotFoundException java8) {
      return java8Packages();
    } catch (Exception e) {
      // The module API is there but answered oddly: fall back to what is certain.
      found.add("java.lang");
      return found;
    }
  }

  /** Java 8: the packages of the boot class path's and the extension directories' jars. */
  private static Set<String> java8Packages() {
    Set<String> found = new HashSet<String>();
    String boot = System.getProperty("sun.boot.class.path", "");
    for (String entry : boot.split(File.pathSeparator)) {
      addJar(new File(entry), found);
    }
    String ext = System.getProperty("java.ext.dirs", "");
    for (String dir : ext.split(File.pathSeparator)) {
      File[] jars = new File(dir).listFiles();
      for (int i = 0; jars != null && i < jars.length; i++) {
        addJar(jars[i], found);
      }
    }
    return found;
  }

  private static void addJar(File file, Set<String> found) {
    if (!file.isFile() || !file.getName().endsWith(".jar")) {
      return;
    }
    ZipFile zip = null;
    try {
      zip = new ZipFile(file);
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        String name = entries.nextElement().getName();
        int slash = name.lastIndexOf('/');
        if (slash > 0 && name.endsWith(".class") && !name.startsWith("io/levee/")) {
          found.add(name.substring(0, slash).replace('/', '.'));
        }
      }
    } catch (IOException unreadable) {
      // A jar the JVM itself could not read either; its classes are then not the JDK's to us.
    } finally {
      if (zip != null) {
        try {
          zip.close();
        } catch (IOException ignored) {
          // Read already.
        }
      }
    }
  }
}
