package methodapp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.levee.it.apps.AppProcess;
import io.levee.it.apps.Lines;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The application of the {@code method} kind's tests: services of its own (a plain class, an
 * interface with two implementations, a JDK proxy, a Spring {@code @Service} behind a CGLIB
 * subclass, a class loaded on demand), called in parallel or one after the other over HTTP. It
 * lives outside {@code io.levee}, which the agent never weaves, and has no Levee code in it.
 *
 * <ul>
 *   <li>{@code /run?target=a[,b]&callers=6&arg=&during=c[,d]}: parallel callers held in the method
 *       ({@link Runs}): {@code ran}, {@code threw}, {@code exception.<class>=n}, {@code messages},
 *       {@code during.<c>}.
 *   <li>{@code /run?...&release=1}: the same, the admitted calls held until {@code /release};
 *       {@code /held} says how many callers have arrived meanwhile.
 *   <li>{@code /call?target=&arg=&repeat=}: calls one after the other, the same counts.
 *   <li>{@code /classes}: the class each service really has.
 *   <li>{@code /generate?count=N}, {@code /jobs}: N more classes made at run time ({@link Jobs}),
 *       and a call of each.
 * </ul>
 *
 * Its own port is the JDK's {@code HttpServer}, which Levee does not protect.
 */
public final class MethodApp {
  private MethodApp() {}

  public static void main(String[] args) throws IOException {
    Targets targets = new Targets();
    Runs runs = new Runs(targets);
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), AppProcess.port(args)), 50);
    server.createContext("/run", e -> answer(e, runs::held));
    server.createContext("/call", e -> answer(e, runs::sequential));
    server.createContext("/held", e -> answer(e, runs::waiting));
    server.createContext("/release", e -> answer(e, runs::release));
    Jobs jobs = new Jobs();
    server.createContext("/generate", e -> answer(e, jobs::generate));
    server.createContext("/jobs", e -> answer(e, jobs::callEach));
    server.createContext(
        "/classes",
        e ->
            answer(
                e,
                q -> {
                  Lines out = new Lines();
                  targets.classes().forEach(out::put);
                  return out.toString();
                }));
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
    AppProcess.ready(server.getAddress().getPort());
  }

  private interface Handler {
    String handle(Map<String, String> query) throws Exception;
  }

  private static void answer(HttpExchange exchange, Handler handler) throws IOException {
    int status = 200;
    String answer;
    try {
      answer = handler.handle(query(exchange.getRequestURI().getRawQuery()));
    } catch (Exception e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      status = 500;
      answer = trace.toString();
    }
    byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          values.put(
              pair.substring(0, eq),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return values;
  }
}
