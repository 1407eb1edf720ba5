package io.levee.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 requests one after the other on one socket, as a keep-alive client or a proxy's pool
 * sends them: what a test needs to see whether the server kept the connection after an answer,
 * which {@code java.net.http.HttpClient} hides by reconnecting.
 */
public final class KeptConnection implements AutoCloseable {
  private final Socket socket = new Socket();
  private final InputStream in;
  private final OutputStream out;

  public KeptConnection(int port) throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    socket.setSoTimeout(10_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** One answer: status, headers (names in lower case) and body. */
  public record Answer(int status, Map<String, String> headers, String body) {
    public boolean saysClose() {
      return "close".equalsIgnoreCase(headers.getOrDefault("connection", ""));
    }
  }

  /**
   * Sends {@code GET path} and reads the whole answer (its body by its {@code Content-Length}), or
   * returns null when the server closed the connection instead of answering.
   */
  public Answer get(String path) throws IOException {
    try {
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
              .getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException closed) {
      return null;
    }
    String statusLine = line();
    if (statusLine == null) {
      return null;
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (String h = line(); h != null && !h.isEmpty(); h = line()) {
      int colon = h.indexOf(':');
      headers.put(
          h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
    }
    String body;
    if (headers.containsKey("content-length")) {
      body =
          new String(
              in.readNBytes(Integer.parseInt(headers.get("content-length"))),
              StandardCharsets.UTF_8);
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = chunked();
    } else {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return new Answer(Integer.parseInt(statusLine.split(" ")[1]), headers, body);
  }

  private String chunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int size = Integer.parseInt(line().trim(), 16);
        size > 0;
        size = Integer.parseInt(line().trim(), 16)) {
      body.write(in.readNBytes(size));
      line();
    }
    line();
    return body.toString(StandardCharsets.UTF_8);
  }

  /** A CRLF-ended line, or null at the end of the stream (or a reset connection). */
  private String line() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int b;
    try {
      while ((b = in.read()) != -1) {
        if (b == '\n') {
          String s = bytes.toString(StandardCharsets.ISO_8859_1);
          return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }
        bytes.write(b);
      }
    } catch (java.net.SocketException reset) {
      return null;
    }
    return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
