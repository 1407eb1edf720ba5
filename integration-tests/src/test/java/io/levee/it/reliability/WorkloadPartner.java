package io.levee.it.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The real partner of the workload application's outbound calls, a Jetty server on 127.0.0.1:
 * {@code 500} for a path under {@code /fail}, {@code 200 ok} for any other. Not the JDK's
 * HttpServer (the shared LocalHttpServer): it writes headers and body apart without TCP_NODELAY, so
 * every keep-alive call waits out the client's delayed ACK, some 40 ms.
 */
final class WorkloadPartner implements AutoCloseable {
  private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);
  private static final byte[] FAILED = "failing on purpose".getBytes(StandardCharsets.UTF_8);

  private final Server server = new Server(new QueuedThreadPool(16, 2));
  private final ServerConnector connector = new ServerConnector(server, 1, 1);

  WorkloadPartner() {
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    connector.setAcceptQueueSize(200);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract.NonBlocking() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            boolean fail = Request.getPathInContext(request).startsWith("/fail");
            response.setStatus(fail ? 500 : 200);
            response.write(
                true,
                ByteBuffer.wrap(fail ? WorkloadPartner.FAILED : WorkloadPartner.OK),
                callback);
            return true;
          }
        });
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>} */
  String base() {
    return "http://127.0.0.1:" + connector.getLocalPort();
  }

  /** A loopback port nobody listens on (bound, then released), for refused connections. */
  static int refusedPort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
