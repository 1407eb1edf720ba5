package io.levee.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.SocketFactory;

/**
 * A connection speaking RESP2, the Redis protocol, over a plain or TLS socket: enough for a test to
 * look into a server ({@code KEYS levee*}, {@code DBSIZE}, {@code INFO memory}) without a client
 * library in the testkit. One command at a time, by one thread.
 *
 * <p>A reply comes back as a {@link String} (simple and bulk strings), a {@link Long} (integers), a
 * {@link List} of those (arrays) or null (a nil bulk string or array); an error reply is thrown as
 * {@link ErrorReply}.
 */
public final class RespConnection implements Closeable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RespConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = new BufferedOutputStream(socket.getOutputStream());
  }

  /**
   * Connects to {@code host:port} through {@code sockets} (a plain or an SSL socket factory),
   * waiting at most {@code timeout} for the connection and then for each reply.
   */
  public static RespConnection open(SocketFactory sockets, String host, int port, Duration timeout)
      throws IOException {
    Socket socket = sockets.createSocket();
    try {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      socket.setTcpNoDelay(true);
      return new RespConnection(socket);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** A plain connection. */
  public static RespConnection open(String host, int port, Duration timeout) throws IOException {
    return open(SocketFactory.getDefault(), host, port, timeout);
  }

  /** How long each reply may take from now on; a reply that takes longer throws a timeout. */
  public void timeout(Duration timeout) throws IOException {
    socket.setSoTimeout((int) timeout.toMillis());
  }

  /** Sends one command and reads its reply. */
  public Object call(String... args) throws IOException {
    out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      out.write(
          ('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write('\r');
      out.write('\n');
    }
    out.flush();
    return read();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  private Object read() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("the server closed the connection");
    }
    String line = line();
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new ErrorReply(line);
      case ':':
        return Long.parseLong(line);
      case '$':
        return bulk(Integer.parseInt(line));
      case '*':
        int count = Integer.parseInt(line);
        if (count < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(read());
        }
        return items;
      default:
        throw new IOException("not a RESP2 reply: " + (char) type + line);
    }
  }

  private String bulk(int length) throws IOException {
    if (length < 0) {
      return null;
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length || in.read() != '\r' || in.read() != '\n') {
      throw new EOFException("the server closed the connection inside a reply");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private String line() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int b; (b = in.read()) != '\r'; ) {
      if (b < 0) {
        throw new EOFException("the server closed the connection inside a reply");
      }
      bytes.write(b);
    }
    if (in.read() != '\n') {
      throw new IOException("a RESP line without its \\n");
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** An error reply of the server ({@code -ERR ...}, {@code -NOAUTH ...}), its text as message. */
  public static final class ErrorReply extends IOException {
    private static final long serialVersionUID = 1L;

    ErrorReply(String message) {
      super(message);
    }
  }
}
