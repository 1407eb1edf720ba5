package io.levee.load.app;

import java.io.File;
import java.nio.file.Files;
import javax.servlet.Filter;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * The application under load: embedded Tomcat 9 (javax), one connector with the legacy default of
 * 200 worker threads, the pages {@code /cpu}, {@code /io} and {@code /page}, and {@code
 * /bench/limit} for the harness. A contender that is a servlet filter sits first in the chain of
 * the three pages; Levee (and "none") adds no filter: Levee arrives as {@code -javaagent}.
 *
 * <p>Usage: {@code BenchApp PORT STUB_PORT CONTENDER}, CONTENDER one of {@link Contenders#NAMES}.
 */
public final class BenchApp {
  public static final int THREADS = 200;

  private BenchApp() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int stubPort = Integer.parseInt(args[1]);
    String contender = args[2];
    Contenders.Built built = Contenders.build(contender);

    File base = Files.createTempDirectory("levee-load-app").toFile();
    base.deleteOnExit();
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.getAbsolutePath());
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(port);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxThreads", Integer.toString(THREADS));
    connector.setProperty("minSpareThreads", "25");
    connector.setProperty("maxConnections", "10000");
    connector.setProperty("acceptCount", "1000");
    connector.setProperty("maxKeepAliveRequests", "-1");
    tomcat.setConnector(connector);

    Context ctx = tomcat.addContext("", base.getAbsolutePath());
    Pages pages = new Pages(stubPort);
    Tomcat.addServlet(ctx, "cpu", pages.cpu());
    ctx.addServletMappingDecoded("/cpu", "cpu");
    // the kinds of request of the priorities scenario: the same page under three paths
    ctx.addServletMappingDecoded("/cpu/*", "cpu");
    Tomcat.addServlet(ctx, "io", pages.io());
    ctx.addServletMappingDecoded("/io", "io");
    Tomcat.addServlet(ctx, "page", pages.page());
    ctx.addServletMappingDecoded("/page", "page");
    Tomcat.addServlet(ctx, "limit", new BenchControl(built));
    ctx.addServletMappingDecoded("/bench/*", "limit");
    if (built.filter() != null) {
      addFilter(ctx, contender, built.filter());
    }
    tomcat.start();
    System.out.println("ready on " + port + " with " + contender);
    tomcat.getServer().await();
  }

  private static void addFilter(Context ctx, String name, Filter filter) {
    FilterDef def = new FilterDef();
    def.setFilterName(name);
    def.setFilter(filter);
    ctx.addFilterDef(def);
    FilterMap map = new FilterMap();
    map.setFilterName(name);
    map.addURLPatternDecoded("/cpu");
    map.addURLPatternDecoded("/cpu/*");
    map.addURLPatternDecoded("/io");
    map.addURLPatternDecoded("/page");
    ctx.addFilterMap(map);
  }
}
