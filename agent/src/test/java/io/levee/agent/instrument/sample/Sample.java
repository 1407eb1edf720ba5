package io.levee.agent.instrument.sample;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;

/**
 * A class the weaver tests weave: a target API subclass whose methods use locals, loops, handlers.
 */
public class Sample extends HttpURLConnection {
  public Sample() throws IOException {
    super(new URL("http://127.0.0.1/"));
  }

  @Override
  public void connect() {}

  @Override
  public void disconnect() {}

  @Override
  public boolean usingProxy() {
    return false;
  }

  public String repeat(String word, long times, int[] counter) {
    StringBuilder b = new StringBuilder();
    for (long i = 0; i < times; i++) {
      b.append(word);
      if (counter != null) {
        counter[0]++;
      }
    }
    return b.toString();
  }

  public long sum(int a, long b, double c) {
    long s = a;
    for (int i = 0; i < 3; i++) {
      s += b;
    }
    return s + (long) c;
  }

  public void fail(String message) throws IOException {
    if (message != null) {
      throw new IOException(message);
    }
  }

  public int caught(int x) {
    try {
      if (x < 0) {
        throw new IllegalArgumentException("negative");
      }
      return x;
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  public String early(String s) {
    if (s == null) {
      return "none";
    }
    String t = s.trim();
    return t.isEmpty() ? "empty" : t;
  }

  /** A static method, as Tomcat's {@code statusDropsConnection}. */
  public static boolean dropsConnection(int status) {
    return status == 503 || status == 500;
  }
}
