package io.levee.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak's open-loop sender: a fixed set of keep-alive HTTP/1.1 connections, each owned by one
 * thread that takes the next due request from a shared queue, writes it, and reads the answer with
 * blocking I/O.
 *
 * <p>Why not {@link java.net.http.HttpClient}: the driver shares one core with the partner, and the
 * JDK client's asynchronous path cost it about 0.5 ms of CPU per request (futures, its selector
 * thread, a timer per request), so the driver saturated its core at ~1 300 requests/s while the
 * application's core was 30 % busy, and the soak measured the driver. A blocking exchange on an
 * open connection costs a few tens of microseconds.
 *
 * <p>The connections also bound what the application sees at once, as a load balancer in front of
 * it would: when it falls behind, requests wait here, in the queue, and their latency still counts
 * from when they were due ({@link SoakLoad}). A request's {@link SoakMix#TIMEOUT} counts from when
 * it goes on the wire, as the JDK client's does.
 *
 * <p>Concurrency: {@link #submit} from any thread; each answer is handed to its callback on the
 * connection's thread.
 */
final class SoakHttp implements AutoCloseable {
  /** What became of one request. {@code status} is 0 when there was no answer. */
  interface Callback {
    void done(int status, String body, IOException error, boolean timeout);
  }

  private record Job(String path, String tenant, Callback callback) {}

  private final InetSocketAddress address;
  private final String hostHeader;
  private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean closed;

  SoakHttp(String host, int port, int connections) {
    this.address = new InetSocketAddress(host, port);
    this.hostHeader = host + ":" + port;
    for (int i = 0; i < connections; i++) {
      Thread t = Daemon.of(this::work, "soak-http-" + i);
      threads.add(t);
      t.start();
    }
  }

  /** Queues a GET of {@code path} (with an {@code X-Tenant-ID} header unless null). */
  void submit(String path, String tenant, Callback callback) {
    queue.add(new Job(path, tenant, callback));
  }

  /** Requests queued or on the wire. */
  int outstanding() {
    return queue.size() + inFlight.get();
  }

  @Override
  public void close() {
    closed = true;
    threads.forEach(Thread::interrupt);
  }

  /** One open connection and its buffered streams. */
  private record Connection(Socket socket, InputStream in, OutputStream out) {
    static Connection open(InetSocketAddress address) throws IOException {
      Socket s = new Socket();
      try {
        s.setTcpNoDelay(true);
        s.connect(address, (int) SoakMix.TIMEOUT.toMillis());
        return new Connection(
            s, new BufferedInputStream(s.getInputStream(), 8192), s.getOutputStream());
      } catch (IOException e) {
        s.close();
        throw e;
      }
    }
  }

  private void work() {
    Connection socket = null;
    while (!closed) {
      Job job;
      try {
        job = queue.take();
      } catch (InterruptedException e) {
        break;
      }
      inFlight.incrementAndGet();
      try {
        socket = exchange(socket, job);
      } finally {
        inFlight.decrementAndGet();
      }
    }
    closeQuietly(socket);
  }

  /** Sends {@code job} and reports it; the connection to use next (null: open a new one). */
  private Connection exchange(Connection socket, Job job) {
    long deadline = System.nanoTime() + SoakMix.TIMEOUT.toNanos();
    boolean reused = socket != null;
    try {
      while (true) {
        if (socket == null) {
          socket = Connection.open(address);
        }
        Answer a;
        try {
          a = roundTrip(socket, job, deadline);
        } catch (SocketTimeoutException e) {
          throw e;
        } catch (IOException e) {
          if (!reused) {
            throw e;
          }
          // the server closed an idle keep-alive connection: once more on a new one
          closeQuietly(socket);
          socket = null;
          reused = false;
          continue;
        }
        job.callback().done(a.status(), a.body(), null, false);
        if (a.close()) {
          closeQuietly(socket);
          return null;
        }
        return socket;
      }
    } catch (SocketTimeoutException e) {
      closeQuietly(socket);
      job.callback().done(0, null, e, true);
      return null;
    } catch (IOException e) {
      closeQuietly(socket);
      job.callback().done(0, null, e, false);
      return null;
    }
  }

  private record Answer(int status, String body, boolean close) {}

  private Answer roundTrip(Connection c, Job job, long deadline) throws IOException {
    StringBuilder head =
        new StringBuilder(128)
            .append("GET ")
            .append(job.path())
            .append(" HTTP/1.1\r\nHost: ")
            .append(hostHeader)
            .append("\r\n");
    if (job.tenant() != null) {
      head.append("X-Tenant-ID: ").append(job.tenant()).append("\r\n");
    }
    head.append("\r\n");
    c.out().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    c.out().flush();
    InputStream in = c.in();
    timeout(c.socket(), deadline);
    String status = line(in);
    if (status == null) {
      throw new IOException("connection closed before an answer");
    }
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP/1 status line: " + status);
    }
    int code = Integer.parseInt(parts[1]);
    long length = -1;
    boolean chunked = false;
    boolean close = parts[0].equals("HTTP/1.0");
    for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
      int colon = h.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close |= value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (chunked) {
      for (long size = chunk(in); size > 0; size = chunk(in)) {
        copy(in, body, size);
        line(in);
      }
      for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
        // trailers are not used
      }
    } else if (length >= 0) {
      copy(in, body, length);
    } else {
      close = true;
      in.transferTo(body);
    }
    return new Answer(code, body.toString(StandardCharsets.UTF_8), close);
  }

  private static void timeout(Socket socket, long deadline) throws IOException {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      throw new SocketTimeoutException("no answer within " + SoakMix.TIMEOUT.toSeconds() + " s");
    }
    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
  }

  private static long chunk(InputStream in) throws IOException {
    String size = line(in);
    if (size == null) {
      throw new IOException("connection closed inside a chunked body");
    }
    int semi = size.indexOf(';');
    return Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
  }

  private static void copy(InputStream in, ByteArrayOutputStream to, long length)
      throws IOException {
    byte[] buffer = new byte[(int) Math.min(8192, Math.max(1, length))];
    long left = length;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("connection closed inside a body");
      }
      to.write(buffer, 0, n);
      left -= n;
    }
  }

  /** One header line without its CRLF, or null at the end of the stream. */
  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder(64);
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        int end = b.length();
        if (end > 0 && b.charAt(end - 1) == '\r') {
          b.setLength(end - 1);
        }
        return b.toString();
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }

  private static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.socket().close();
    } catch (IOException e) {
      // nothing to do: the connection is gone either way
    }
  }
}
