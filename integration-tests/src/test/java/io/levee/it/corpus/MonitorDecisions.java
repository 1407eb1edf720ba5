package io.levee.it.corpus;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Evidence that the monitor run's rules decided on a subject's calls, not only that classes were
 * woven: the calls each resource would have blocked, as the agent's {@code /status} counts them
 * ({@link AgentStatus}), read once the subject's requests are answered. The monitor rules allow one
 * call a second per resource, so calls made back to back always have some it would have blocked.
 * The log's summary of the same counts comes only every 10 s, which a run can be shorter than.
 */
public final class MonitorDecisions {
  private MonitorDecisions() {}

  /**
   * Those of {@code resources} that, in the monitor run's {@code status} (by resource, as {@link
   * AgentStatus#read} gives it), would have blocked no call.
   */
  public static List<String> missing(Map<String, AgentStatus.Row> status, String... resources) {
    return Arrays.stream(resources)
        .filter(r -> status.get(r) == null || status.get(r).wouldBlock() <= 0)
        .collect(Collectors.toList());
  }
}
