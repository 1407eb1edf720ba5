package org.example.greeter;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** Fetches a greeting from a web service, with the JDK's own HTTP client. */
public final class GreetingClient {
  private final URL service;

  public GreetingClient(URL service) {
    this.service = service;
  }

  public String fetch() throws IOException {
    HttpURLConnection connection = (HttpURLConnection) service.openConnection();
    try {
      if (connection.getResponseCode() != 200) {
        throw new IOException("the service answered " + connection.getResponseCode());
      }
      try (InputStream body = connection.getInputStream()) {
        return new String(body.readAllBytes(), StandardCharsets.UTF_8);
      }
    } finally {
      connection.disconnect();
    }
  }
}
