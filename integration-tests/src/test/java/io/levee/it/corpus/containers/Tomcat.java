package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import io.levee.it.support.Jdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Apache Tomcat from its distribution, run by its own {@code bin/catalina.sh run} with a scratch
 * {@code CATALINA_BASE} holding a copy of its {@code conf} and its {@code examples} webapp. The
 * deployment recipes ({@code io.levee.it.deploy}) take its distribution and its connector too.
 */
public final class Tomcat implements Distribution {
  /**
   * The example filters ship declared but unmapped in the examples' web.xml; mapping them makes
   * every servlet and JSP request go through the timing filter and the request dumper (which reads
   * the whole request), and the compression test page through the compression filter. Not the async
   * examples: these two filters do not declare async support, so Tomcat refuses to start async
   * behind them.
   */
  private static final String FILTER_MAPPINGS =
      mapping("Timing Filter", "/servlets/*", "/jsp/*")
          + mapping("Request Dumper Filter", "/servlets/*", "/jsp/*")
          + mapping("Compression Filter", "/CompressionTest")
          + "</web-app>";

  private final Path home;

  private Tomcat(Path home) {
    this.home = home;
  }

  /** The unpacked Tomcat of that version prefix, e.g. {@code 10.1.}. */
  static Tomcat version(String prefix) {
    return new Tomcat(home(prefix));
  }

  /** The {@code CATALINA_HOME} of the unpacked Tomcat of that version prefix. */
  public static Path home(String prefix) {
    return Distribution.unpacked("apache-tomcat-" + prefix);
  }

  @Override
  public String name() {
    return home.getFileName().toString();
  }

  @Override
  public Launched launch(Way way, String subject, Jdk jdk, List<String> agentOptions) {
    Path base = Scratch.fresh(subject + "-" + way.name().toLowerCase());
    Scratch.copyTree(home.resolve("conf"), base.resolve("conf"));
    Scratch.copyTree(home.resolve("webapps/examples"), base.resolve("webapps/examples"));
    int port = Scratch.freePort();
    try {
      for (String dir : List.of("logs", "temp", "work")) {
        Files.createDirectories(base.resolve(dir));
      }
      listenOn(base.resolve("conf/server.xml"), port, -1);
      mapExampleFilters(base.resolve("webapps/examples/WEB-INF/web.xml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> env = new HashMap<>();
    env.put("CATALINA_HOME", home.toString());
    env.put("CATALINA_BASE", base.toString());
    env.put("CATALINA_TMPDIR", base.resolve("temp").toString());
    env.put("JAVA_HOME", jdk.home().toString());
    env.put("JRE_HOME", jdk.home().toString());
    env.put("JAVA_OPTS", String.join(" ", Distribution.JVM_OPTIONS));
    env.put("CATALINA_OPTS", String.join(" ", way.jvmOptions(subject, agentOptions)));
    ContainerProcess process =
        ContainerProcess.start(
            name() + " " + way + " on " + jdk,
            List.of("/bin/sh", home.resolve("bin/catalina.sh").toString(), "run"),
            env,
            base,
            base.resolve("logs/console.out"),
            port,
            "/examples/");
    return new Launched(process, base);
  }

  /**
   * Only the HTTP connector, on {@code port} of 127.0.0.1; the shutdown port {@code shutdownPort},
   * or none (-1) where SIGTERM stops the container: two runs must not contend for 8005.
   */
  public static void listenOn(Path serverXml, int port, int shutdownPort) throws IOException {
    String xml = Files.readString(serverXml, StandardCharsets.UTF_8);
    String changed =
        xml.replace("<Server port=\"8005\"", "<Server port=\"" + shutdownPort + "\"")
            .replace(
                "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
                "<Connector port=\"" + port + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"");
    if (changed.equals(xml) || !changed.contains("port=\"" + port + "\"")) {
      throw new IllegalStateException("no 8080 connector or 8005 shutdown port in " + serverXml);
    }
    Files.writeString(serverXml, changed, StandardCharsets.UTF_8);
  }

  private static void mapExampleFilters(Path webXml) throws IOException {
    String xml = Files.readString(webXml, StandardCharsets.UTF_8);
    if (!xml.contains("<filter-name>Request Dumper Filter</filter-name>")) {
      throw new IllegalStateException(
          "the examples no longer declare the request dumper: " + webXml);
    }
    Files.writeString(webXml, xml.replace("</web-app>", FILTER_MAPPINGS), StandardCharsets.UTF_8);
  }

  private static String mapping(String filter, String... patterns) {
    StringBuilder xml =
        new StringBuilder("<filter-mapping><filter-name>" + filter + "</filter-name>");
    for (String pattern : patterns) {
      xml.append("<url-pattern>").append(pattern).append("</url-pattern>");
    }
    return xml.append("</filter-mapping>\n").toString();
  }
}
