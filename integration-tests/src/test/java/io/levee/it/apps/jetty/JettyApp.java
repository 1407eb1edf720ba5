package io.levee.it.apps.jetty;

import io.levee.it.apps.AppProcess;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A jakarta.servlet application on embedded Jetty 12 (ee10), listening on 127.0.0.1. */
public final class JettyApp {
  private JettyApp() {}

  public static void main(String[] args) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(AppProcess.port(args));
    server.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler("/");
    FilterHolder filter = new FilterHolder(new JakartaServlets.PassThroughFilter());
    filter.setAsyncSupported(true);
    context.addFilter(
        filter,
        "/*",
        EnumSet.of(DispatcherType.REQUEST, DispatcherType.FORWARD, DispatcherType.ASYNC));
    servlet(context, new JakartaServlets.WorkServlet(), "/");
    servlet(context, new JakartaServlets.ForwardServlet(), "/forward/*");
    servlet(context, new JakartaServlets.AsyncServlet(), "/async/*");
    servlet(context, new JakartaServlets.OutboundServlet(), "/http", "/jdbc", "/libs");
    server.setHandler(context);

    server.start();
    AppProcess.ready(connector.getLocalPort());
    server.join();
  }

  private static void servlet(ServletContextHandler context, HttpServlet servlet, String... paths) {
    ServletHolder holder = new ServletHolder(servlet);
    holder.setAsyncSupported(true);
    for (String path : paths) {
      context.addServlet(holder, path);
    }
  }
}
