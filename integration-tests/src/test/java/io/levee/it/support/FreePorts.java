package io.levee.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Free loopback ports for servers a test starts, which bind them moments later. A port is never
 * handed out twice in one test JVM, so that tests running side by side cannot both be given a port
 * that one of them has not bound yet.
 */
public final class FreePorts {
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A port free on 127.0.0.1 now and not handed out before by this JVM. */
  public static int next() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port;
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = socket.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (GIVEN.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no loopback port that was not handed out before");
  }
}
