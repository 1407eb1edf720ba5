package io.levee.demo.driver;

import java.util.List;
import java.util.Map;

/**
 * One act of the demo: how long it lasts, the rate of each row, and events at given seconds (the
 * partner failing, then recovering).
 */
record Scenario(
    Id id,
    String title,
    String story,
    double seconds,
    Map<String, Double> rates,
    List<Step> steps) {

  enum Id {
    NORMAL,
    BURST,
    PARTNER,
    STORM,
    CPU
  }

  record Step(double at, String note, Runnable action) {}

  /** When the step at {@code index} happens, in seconds into the scenario; its end if none. */
  double stepAt(int index) {
    return index < steps.size() ? steps.get(index).at() : seconds;
  }
}
