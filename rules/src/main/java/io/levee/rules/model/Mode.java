package io.levee.rules.model;

/** {@code enforce} blocks; {@code monitor} decides and counts "would block", never blocks. */
public enum Mode {
  ENFORCE,
  MONITOR
}
