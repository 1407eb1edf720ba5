package io.levee.it.apps.corpus.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP client of the corpus: the same exchanges with the {@link Partner}, each printed as one
 * line (status, headers but {@code Date}, body length and digest, or the exception), so that runs
 * with and without the agent compare line by line. A client implements {@link #exchange} with its
 * own API, as an application would.
 */
public abstract class ClientExchanges {
  /** What one exchange gave: status, headers (names in lower case) and body. */
  public record Answer(int status, Map<String, List<String>> headers, byte[] body) {}

  /** Sends {@code method url} with {@code body} (null for none) and reads the whole answer. */
  protected abstract Answer exchange(String method, String url, byte[] body) throws Exception;

  /** Called once after the exchanges: close pools, check nothing is left leased. */
  protected void finish() throws Exception {}

  public final void run() throws Exception {
    try (Partner partner = Partner.start()) {
      String base = partner.base();
      print("text", "GET", base + "/text", null, partner);
      print("json", "GET", base + "/json?q=a%20b&n=1", null, partner);
      print("echo", "POST", base + "/echo", "ping".getBytes(StandardCharsets.UTF_8), partner);
      print("missing", "GET", base + "/missing", null, partner);
      print("broken", "GET", base + "/broken", null, partner);
      print("redirect", "GET", base + "/redirect", null, partner);
      print("empty", "GET", base + "/empty", null, partner);
      print("headers", "GET", base + "/headers", null, partner);
      print("chunked", "GET", base + "/chunked", null, partner);
      print("gzip", "GET", base + "/gzip", null, partner);
      print("head", "HEAD", base + "/text", null, partner);
      print("refused", "GET", partner.refused() + "/text", null, partner);
      for (int i = 0; i < 20; i++) {
        print("again", "GET", base + "/text", null, partner);
      }
      finish();
      System.out.println("done");
    }
  }

  private void print(String name, String method, String url, byte[] body, Partner partner) {
    String line;
    try {
      Answer a = exchange(method, url, body);
      Map<String, List<String>> headers = new TreeMap<>();
      a.headers()
          .forEach(
              (k, v) -> {
                if (k != null && !k.equalsIgnoreCase("date")) {
                  headers.put(k.toLowerCase(Locale.ROOT), v);
                }
              });
      line = a.status() + " " + headers + " " + a.body().length + " " + digest(a.body());
    } catch (Exception e) {
      line = e.getClass().getName() + ": " + e.getMessage();
    }
    System.out.println(
        name
            + " "
            + line.replace(Integer.toString(partner.port()), "PORT")
                .replace(Integer.toString(partner.refusedPort()), "REFUSED_PORT"));
  }

  private static String digest(byte[] body) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(body);
    return HexFormat.of().formatHex(d, 0, 6);
  }
}
