package io.levee.it.apps.workload;

import io.levee.it.apps.AppProcess;
import java.io.File;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A javax application on embedded Tomcat 9 for the reliability tests that push a million calls
 * through the agent: inbound pages that answer, throw or time out asynchronously ({@code /svc/*},
 * {@code /tenant/*}), an endpoint that runs outbound HTTP or JDBC workloads inside this JVM ({@code
 * /run}), and one that reports the heap after a full collection ({@code /heap}).
 */
public final class WorkloadApp {
  /** Held, or the setting goes with the logger: a stack trace per thrown request is noise here. */
  private static final Logger SERVLET_ERRORS =
      Logger.getLogger("org.apache.catalina.core.StandardWrapperValve");

  private WorkloadApp() {}

  public static void main(String[] args) throws Exception {
    SERVLET_ERRORS.setLevel(Level.OFF);
    File base = AppProcess.tempBaseDir("levee-it-workload");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.getPath());
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(AppProcess.port(args));
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxKeepAliveRequests", "-1");
    connector.setProperty("maxThreads", "64");
    tomcat.setConnector(connector);

    Context context = tomcat.addContext("", base.getPath());
    servlet(context, "pages", new WorkloadServlets.Pages(), "/svc/*", "/tenant/*");
    servlet(context, "run", new WorkloadServlets.Run(), "/run");
    servlet(context, "heap", new WorkloadServlets.Heap(), "/heap");

    tomcat.start();
    AppProcess.ready(connector.getLocalPort());
    tomcat.getServer().await();
  }

  private static void servlet(Context context, String name, HttpServlet servlet, String... paths) {
    Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
    wrapper.setAsyncSupported(true);
    for (String path : paths) {
      context.addServletMappingDecoded(path, name);
    }
  }
}
