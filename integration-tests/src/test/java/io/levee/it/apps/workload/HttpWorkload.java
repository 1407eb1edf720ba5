package io.levee.it.apps.workload;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.Map;

/**
 * {@code /run?kind=http&server=&refused=&calls=&threads=&mix=&distinct=}: outbound calls with
 * {@link HttpURLConnection}, the way legacy code makes them, to a real server ({@code server}, a
 * base URL) and to a port nobody listens on ({@code refused}). Modes:
 *
 * <ul>
 *   <li>{@code ok}: {@code GET /ok}, body read and closed, so the connection is kept alive;
 *   <li>{@code blocked}: {@code GET /blocked}, which the rules refuse;
 *   <li>{@code fail}: {@code GET /fail}, a 500 (the server is told so by the path);
 *   <li>{@code refused}: a connection refused, an exception;
 *   <li>{@code unread}: the status read, the body never, the connection dropped;
 *   <li>{@code disconnect}: connected, then disconnected before any request;
 *   <li>{@code dropped}: connected, then left to the garbage collector.
 * </ul>
 *
 * With {@code distinct=true} each call's path ends in its own number, so every URL is new.
 */
final class HttpWorkload {
  private HttpWorkload() {}

  static String run(Map<String, String> q) throws InterruptedException {
    String server = q.get("server");
    String refused = q.get("refused");
    boolean distinct = Boolean.parseBoolean(q.get("distinct"));
    return new Mix(q.get("mix"))
        .run(
            Long.parseLong(q.get("calls")),
            Integer.parseInt(q.getOrDefault("threads", "2")),
            (mode, i) -> {
              String suffix = distinct ? "/" + i : "";
              switch (mode) {
                case "refused":
                  return read(open(refused + "/x" + suffix));
                case "unread":
                  return open(server + "/ok" + suffix).getResponseCode() == 200 ? "ok" : "status";
                case "disconnect":
                  HttpURLConnection c = open(server + "/ok" + suffix);
                  c.connect();
                  c.disconnect();
                  return "ok";
                case "dropped":
                  open(server + "/ok" + suffix).connect();
                  return "ok";
                default:
                  return read(open(server + "/" + mode + suffix));
              }
            });
  }

  private static HttpURLConnection open(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(10_000);
    return c;
  }

  /** The whole body (error body for a status of 400 or more), closed: "ok" or "status". */
  private static String read(HttpURLConnection c) throws IOException {
    int status = c.getResponseCode();
    InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream();
    if (body != null) {
      try (InputStream in = body) {
        in.readAllBytes();
      }
    }
    return status == 200 ? "ok" : "status" + status;
  }
}
