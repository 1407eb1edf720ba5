package io.levee.demo.driver;

import java.nio.file.Path;

/** The java launcher of the JVM the driver runs on, so the application runs on the same JDK. */
final class Java {
  private Java() {}

  static String binary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
