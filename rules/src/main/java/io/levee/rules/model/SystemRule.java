package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

/**
 * {@code system:}: protection of the whole process, applied to every inbound request not excluded.
 */
public final class SystemRule {
  /** Path patterns never shed by the system rule. */
  public final List<String> exclude;

  /** The adaptive limit on all inbound requests; never null (the loader requires it). */
  public final AdaptiveSpec adaptive;

  /** Mode of the system rule; the settings' mode unless {@code system.mode} says otherwise. */
  public final Mode mode;

  public final OnBlock onBlock;

  /**
   * Whether a request this rule governs answers a 5xx that follows a refused outbound call as
   * blocked, unless the servlet resource it matched says otherwise ({@code backpressure}).
   */
  public final boolean backpressure;

  public SystemRule(List<String> exclude, AdaptiveSpec adaptive, Mode mode, OnBlock onBlock) {
    this(exclude, adaptive, mode, onBlock, false);
  }

  public SystemRule(
      List<String> exclude,
      AdaptiveSpec adaptive,
      Mode mode,
      OnBlock onBlock,
      boolean backpressure) {
    this.exclude = Collections.unmodifiableList(exclude);
    this.adaptive = adaptive;
    this.mode = mode;
    this.onBlock = onBlock;
    this.backpressure = backpressure;
  }
}
