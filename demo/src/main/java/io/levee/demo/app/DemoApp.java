package io.levee.demo.app;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/**
 * The application Levee protects in the demo, written the way many of our users' applications are:
 * plain javax servlets on Tomcat 9, JDBC through {@code DriverManager}, an outbound call through
 * {@code HttpURLConnection} with no timeouts. It knows nothing of Levee.
 *
 * <p>Usage: {@code DemoApp PORT PARTNER_URL} (port 0 picks a free one). Prints {@code READY port=N
 * pid=P} on stdout once it serves requests.
 */
public final class DemoApp {
  // Held so the level outlives a garbage collection: JUL keeps loggers weakly.
  private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

  private DemoApp() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    String partner = args.length > 1 ? args[1] : "http://127.0.0.1:8081";
    // Tomcat's start-up chatter would drown the agent's few lines.
    TOMCAT_LOG.setLevel(Level.WARNING);

    Database db = Database.create();
    Tomcat tomcat = new Tomcat();
    File base = Files.createTempDirectory("levee-demo-tomcat").toFile();
    // Tomcat writes a work directory into it, which deleteOnExit would leave behind.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(base.toPath())));
    tomcat.setBaseDir(base.getAbsolutePath());
    tomcat.setPort(port);
    tomcat.getConnector().setProperty("maxThreads", "200");
    tomcat.getConnector().setProperty("acceptCount", "500");

    Context context = tomcat.addContext("", base.getAbsolutePath());
    add(context, "/api/orders", new OrdersServlet(db));
    add(context, "/api/quote", new QuoteServlet(partner));
    add(context, "/api/report", new ReportServlet(db));
    add(context, "/api/compute", new ComputeServlet());
    add(context, "/health", new HealthServlet(null));
    add(context, "/internal/stats", new HealthServlet(db));
    tomcat.start();

    System.out.println(
        "READY port="
            + tomcat.getConnector().getLocalPort()
            + " pid="
            + ProcessHandle.current().pid());
    System.out.flush();
    tomcat.getServer().await();
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is no reason to fail a shutdown
    }
  }

  private static void add(Context context, String path, HttpServlet servlet) {
    String name = path.replace('/', '_');
    Tomcat.addServlet(context, name, servlet);
    context.addServletMappingDecoded(path, name);
  }
}
