package io.levee.bootstrap.method;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The numbers of woven methods, unique for the life of the JVM: they live in the boot loader, which
 * outlives an agent's detach, so a method woven by an agent that has gone can never pass a number
 * that a later agent gave another method.
 */
public final class SiteNumbers {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private SiteNumbers() {}

  /** A number no method has had in this JVM. */
  public static int next() {
    return NEXT.getAndIncrement();
  }
}
