package io.levee.it.lifecycle;

/** A JVM that does nothing until its stdin closes: a target for the command line's refusals. */
public final class Idle {
  private Idle() {}

  public static void main(String[] args) throws Exception {
    System.out.println("READY 0");
    System.out.flush();
    while (System.in.read() != -1) {
      // the test never writes; EOF means it is gone
    }
  }
}
