package io.levee.agent.endpoint;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** The live page's HTML, a resource beside these classes in the agent jar. */
final class PageResource {
  static final String NAME = "live-page.html";

  private PageResource() {}

  /**
   * The page as UTF-8 text.
   *
   * @throws IllegalStateException when the jar lacks it (the endpoint answers 500 and goes on)
   */
  static String read() {
    InputStream in = PageResource.class.getResourceAsStream(NAME);
    if (in == null) {
      throw new IllegalStateException("the live page is missing from the agent jar");
    }
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 * 1024);
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), "UTF-8");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the live page: " + e.getMessage(), e);
    } finally {
      try {
        in.close();
      } catch (IOException e) {
        // Read or not, it is closed.
      }
    }
  }
}
