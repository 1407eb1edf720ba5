package io.levee.it.apps.tomcat;

import io.levee.it.apps.AppProcess;
import io.levee.it.apps.Arrivals;
import java.io.File;
import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/** A javax.servlet application on embedded Tomcat 9, listening on 127.0.0.1. */
public final class TomcatApp {
  private TomcatApp() {}

  public static void main(String[] args) throws Exception {
    File base = AppProcess.tempBaseDir("levee-it-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.getPath());
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(AppProcess.port(args));
    connector.setProperty("address", "127.0.0.1");
    // Tomcat answers 400 itself to headers over 8 KiB; a test sends oversized bearer tokens
    connector.setProperty("maxHttpHeaderSize", "65536");
    // a test of a small pool of worker threads sets it; Tomcat's default (200) otherwise
    String maxThreads = System.getProperty("levee.it.max-threads");
    if (maxThreads != null) {
      connector.setProperty("maxThreads", maxThreads);
    }
    tomcat.setConnector(connector);

    Context context = tomcat.addContext("", base.getPath());
    context.getPipeline().addValve(new ArrivalValve());
    filter(context, new AppServlets.PassThroughFilter());
    servlet(context, "work", new AppServlets.WorkServlet(), "/");
    servlet(context, "forward", new AppServlets.ForwardServlet(), "/forward/*");
    servlet(context, "async", new AppServlets.AsyncServlet(), "/async/*");
    servlet(
        context,
        "outbound",
        new AppServlets.OutboundServlet(),
        "/http",
        "/okhttp",
        "/apache",
        "/jdkhttp",
        "/apache-async",
        "/jdbc",
        "/pool",
        "/libs",
        "/arrivals",
        "/faults");

    tomcat.start();
    AppProcess.ready(connector.getLocalPort());
    tomcat.getServer().await();
  }

  /** Records arrivals before any filter or servlet (a valve is neither, so never instrumented). */
  private static final class ArrivalValve extends ValveBase {
    ArrivalValve() {
      super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
      Arrivals.record(request.getRequestURI());
      getNext().invoke(request, response);
    }
  }

  private static void servlet(Context context, String name, HttpServlet servlet, String... paths) {
    Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
    wrapper.setAsyncSupported(true);
    for (String path : paths) {
      context.addServletMappingDecoded(path, name);
    }
  }

  private static void filter(Context context, Filter filter) {
    FilterDef def = new FilterDef();
    def.setFilterName("pass-through");
    def.setFilter(filter);
    def.setAsyncSupported("true");
    context.addFilterDef(def);
    FilterMap map = new FilterMap();
    map.setFilterName("pass-through");
    map.addURLPattern("/*");
    map.setDispatcher("REQUEST");
    map.setDispatcher("FORWARD");
    map.setDispatcher("ASYNC");
    context.addFilterMap(map);
  }
}
