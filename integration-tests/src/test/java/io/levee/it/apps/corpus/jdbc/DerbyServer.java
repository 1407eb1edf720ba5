package io.levee.it.apps.corpus.jdbc;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.apache.derby.drda.NetworkServerControl;

/**
 * Apache Derby's network server, started in the corpus JVM on a free loopback port the first time a
 * combination needs it, with an in-memory database; the corpus reaches it through Derby's client
 * driver, over TCP, as an application reaches a server. Its own log goes to the corpus's scratch
 * folder, never to the working directory or to stdout.
 */
final class DerbyServer {
  private static NetworkServerControl server;
  private static int port;

  private DerbyServer() {}

  static synchronized String url() {
    if (server == null) {
      start();
    }
    return "jdbc:derby://127.0.0.1:" + port + "/memory:corpus;create=true";
  }

  static synchronized void stop() {
    if (server != null) {
      try {
        server.shutdown();
      } catch (Exception e) {
        throw new IllegalStateException("Derby's network server did not stop", e);
      }
      server = null;
    }
  }

  private static void start() {
    Path home = Scratch.dir().resolve("derby");
    System.setProperty("derby.system.home", home.toString());
    System.setProperty("derby.stream.error.file", home.resolve("derby.log").toString());
    try {
      port = freePort();
      server = new NetworkServerControl(InetAddress.getByName("127.0.0.1"), port);
      server.start(new PrintWriter(Writer.nullWriter()));
      awaitPing();
    } catch (Exception e) {
      throw new IllegalStateException("Derby's network server did not start", e);
    }
  }

  private static void awaitPing() throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try {
        server.ping();
        return;
      } catch (Exception notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(50);
      }
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
