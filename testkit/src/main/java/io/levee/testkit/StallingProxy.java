package io.levee.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port in front of a server, which a test turns into a server that
 * hangs ({@link #stall}: connections stay open and are accepted, but no byte moves either way) or
 * one that is slow ({@link #delay}: each chunk of bytes waits that long before it goes on). What
 * the proxy holds back is delivered once it flows again. Every thread is a daemon and ends with
 * {@link #close}.
 *
 * <p>Concurrency: the test thread sets {@code stalled} and {@code delayNanos}; one thread accepts
 * connections and two per connection copy bytes, each reading the flags before every chunk, so a
 * change applies from the next chunk on. {@code gate} is where stalled copiers wait and what a
 * change of {@code stalled} or {@link #close} notifies.
 */
public final class StallingProxy implements AutoCloseable {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Object gate = new Object();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile boolean stalled;
  private volatile long delayNanos;
  private volatile boolean closed;

  private StallingProxy(ServerSocket server, InetSocketAddress target) {
    this.server = server;
    this.target = target;
  }

  /** A proxy to {@code host:port}, accepting connections from now on. */
  public static StallingProxy to(String host, int port) throws IOException {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    StallingProxy proxy = new StallingProxy(server, new InetSocketAddress(host, port));
    proxy.spawn("stalling-proxy-" + server.getLocalPort() + "-accept", proxy::accept);
    return proxy;
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return server.getLocalPort();
  }

  /** True: nothing moves in either direction until {@code stall(false)}; false: all flows again. */
  public void stall(boolean on) {
    synchronized (gate) {
      stalled = on;
      gate.notifyAll();
    }
  }

  /** Each chunk waits {@code delay} before it is forwarded; {@link Duration#ZERO} for none. */
  public void delay(Duration delay) {
    delayNanos = delay.toNanos();
  }

  /** How many client connections it has accepted so far. */
  public int connections() {
    return connections.get();
  }

  /** Closes every connection and ends every thread of the proxy. */
  @Override
  public void close() {
    closed = true;
    closeQuietly(server);
    sockets.forEach(StallingProxy::closeQuietly);
    synchronized (gate) {
      gate.notifyAll();
    }
    for (Thread t : threads) {
      t.interrupt();
      try {
        t.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      int n = connections.incrementAndGet();
      Socket upstream = new Socket();
      try {
        sockets.add(client);
        sockets.add(upstream);
        if (closed) {
          throw new IOException("closed");
        }
        upstream.connect(target, (int) CONNECT_TIMEOUT.toMillis());
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
      } catch (IOException e) {
        end(client, upstream);
        continue;
      }
      String name = "stalling-proxy-" + port() + "-" + n;
      spawn(name + "-up", () -> copy(client, upstream));
      spawn(name + "-down", () -> copy(upstream, client));
    }
  }

  private void copy(Socket from, Socket to) {
    byte[] chunk = new byte[8192];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n; (n = in.read(chunk)) >= 0; ) {
        awaitFlowing();
        long delay = delayNanos;
        if (delay > 0) {
          TimeUnit.NANOSECONDS.sleep(delay);
          awaitFlowing(); // a stall that began meanwhile holds this chunk too
        }
        if (closed) {
          return; // what a stalled proxy held back is never delivered once it is closed
        }
        out.write(chunk, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // One side went away, or the proxy is closing: the pair ends below.
    } finally {
      end(from, to);
    }
  }

  private void awaitFlowing() throws InterruptedException {
    synchronized (gate) {
      while (stalled && !closed) {
        gate.wait();
      }
    }
  }

  /** Ends both sides of a connection, as a proxy does when either side closes. */
  private void end(Socket a, Socket b) {
    closeQuietly(a);
    closeQuietly(b);
    sockets.remove(a);
    sockets.remove(b);
  }

  private void spawn(String name, Runnable body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } finally {
                threads.remove(Thread.currentThread());
              }
            },
            name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Already closed or never connected: nothing to release.
    }
  }
}
