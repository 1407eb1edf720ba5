package io.levee.benchmarks.instrumentation;

import benchmarkapp.PriceBook;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What weaving costs one call of an application's method that a {@code method} resource names
 * ({@link PriceBook#price}): {@code benchmarks/run-instrumentation.sh} runs it without the agent,
 * with rules whose method resource names another class (so this one is not woven at all), and with
 * a rule that admits it. Like {@link InstrumentedCalls} it knows nothing of Levee.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MethodCalls {
  @State(Scope.Thread)
  public static class Book {
    final PriceBook book = new PriceBook();
    int item;
  }

  @Benchmark
  public long methodCall(Book b) {
    return b.book.price(b.item++);
  }
}
