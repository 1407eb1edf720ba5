package io.levee.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What the agent logged since a mark (the number of its lines before a command), read as the
 * application writes it: {@code lines} gives the agent's lines so far.
 */
final class AgentLogSince {
  private static final long WAIT_NANOS = 5_000_000_000L;

  private AgentLogSince() {}

  /** The info line of a start, reload or attach that changed the method resources. */
  static String line(List<String> classes) {
    List<String> sorted = classes.stream().sorted().collect(Collectors.toList());
    return "method resources changed: retransformed "
        + sorted.size()
        + " classes"
        + (sorted.isEmpty() ? "" : ": " + String.join(", ", sorted));
  }

  /**
   * The one such line logged since {@code mark}, from its text on: waits for one, then fails if
   * there are more (a line of an earlier step is logged before this one).
   */
  static String retransformed(Supplier<List<String>> lines, int mark) throws InterruptedException {
    Supplier<List<String>> found =
        () -> {
          List<String> all = lines.get();
          return all.subList(Math.min(mark, all.size()), all.size()).stream()
              .filter(l -> l.contains("method resources changed"))
              .collect(Collectors.toList());
        };
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (found.get().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(found.get()).as("the method resources line").hasSize(1);
    String line = found.get().get(0);
    return line.substring(line.indexOf("method resources changed"));
  }

  /**
   * The agent's lines since {@code mark}, once one of them is {@code expected} (waited for up to 5
   * s).
   */
  static List<String> logged(Supplier<List<String>> lines, int mark, Predicate<String> expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (true) {
      List<String> all = lines.get();
      List<String> since = all.subList(Math.min(mark, all.size()), all.size());
      if (since.stream().anyMatch(expected) || System.nanoTime() > deadline) {
        assertThat(since).as("the agent's log since the command").anyMatch(expected);
        return since;
      }
      Thread.sleep(50);
    }
  }
}
