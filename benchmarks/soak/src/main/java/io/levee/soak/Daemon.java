package io.levee.soak;

/** The soak's threads: daemons, so that none of them keeps its JVM alive after the report. */
final class Daemon {
  private Daemon() {}

  static Thread of(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
