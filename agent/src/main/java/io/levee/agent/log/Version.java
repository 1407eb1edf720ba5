package io.levee.agent.log;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The version of this agent, as the build wrote it beside its classes: the start-up line, {@code
 * /status} and {@code --version} say it, so that a report names what was running.
 */
public final class Version {
  private static final String CURRENT = read();

  private Version() {}

  /** Like {@code 0.1.0}; {@code unknown} when the classes were not built with their resource. */
  public static String current() {
    return CURRENT;
  }

  private static String read() {
    InputStream in = Version.class.getResourceAsStream("version.txt");
    if (in == null) {
      return "unknown";
    }
    try {
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line = reader.readLine();
      return line == null || line.trim().isEmpty() || line.contains("${") ? "unknown" : line.trim();
    } catch (IOException e) {
      return "unknown";
    } finally {
      try {
        in.close();
      } catch (IOException e) {
        // Read or not, it is closed.
      }
    }
  }
}
