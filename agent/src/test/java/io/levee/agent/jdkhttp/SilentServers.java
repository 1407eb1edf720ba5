package io.levee.agent.jdkhttp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Local ports that never answer, for the timeouts of the JDK client's tests. */
final class SilentServers {
  private SilentServers() {}

  /**
   * A listening socket that never accepts, its backlog filled: the kernel drops further connection
   * attempts, so a connect hangs until the client gives up.
   */
  static final class FullBacklog implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> queued = new CopyOnWriteArrayList<>();

    FullBacklog() throws IOException {
      socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      for (int i = 0; i < 4; i++) {
        Socket s = new Socket();
        try {
          s.connect(socket.getLocalSocketAddress(), 200);
          queued.add(s);
        } catch (IOException full) {
          s.close();
          break;
        }
      }
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/";
    }

    @Override
    public void close() throws IOException {
      for (Socket s : queued) {
        s.close();
      }
      socket.close();
    }
  }

  /** Accepts connections and never answers. */
  static final class Stalling implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    Stalling() throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread t =
          new Thread(
              () -> {
                try {
                  while (true) {
                    accepted.add(socket.accept());
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              },
              "stalling-server");
      t.setDaemon(true);
      t.start();
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/stall";
    }

    @Override
    public void close() throws IOException {
      socket.close();
      for (Socket s : accepted) {
        s.close();
      }
    }
  }
}
