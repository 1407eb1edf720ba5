package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

/** A validated rules file: immutable, and only ever built by the loader after it found no error. */
public final class RuleSet {
  /** An empty rule set: protects nothing. */
  public static final RuleSet EMPTY =
      new RuleSet("<none>", Settings.DEFAULT, null, Collections.<ResourceRule>emptyList());

  /** Where the rules came from (a path), for messages. */
  public final String source;

  public final Settings settings;

  /** The process-wide rule for inbound requests, or null. */
  public final SystemRule system;

  /** In file order: the first that matches a call applies. */
  public final List<ResourceRule> resources;

  public RuleSet(
      String source, Settings settings, SystemRule system, List<ResourceRule> resources) {
    this.source = source;
    this.settings = settings;
    this.system = system;
    this.resources = Collections.unmodifiableList(resources);
  }

  /**
   * What is in force, for a person: {@code 1 resource}, {@code 3 resources and the system rule}; a
   * file that holds only {@code system} is not "0 resources".
   */
  public String describe() {
    int n = resources.size();
    return n
        + (n == 1 ? " resource" : " resources")
        + (system == null ? "" : " and the system rule");
  }
}
