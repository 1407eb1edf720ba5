package io.levee.agent.instrument.sample;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;

/** An application's ancestor between a woven class ({@link LeafConnection}) and the JDK's API. */
public abstract class BaseConnection extends HttpURLConnection {
  protected BaseConnection() throws IOException {
    super(new URL("http://127.0.0.1/"));
  }
}
