package io.levee.rules.engine;

import io.levee.rules.model.KeySpec;

/**
 * Reads the key of a per-key rate limit ({@code rate-limit.per}) from an inbound request: the
 * client address, a header or a parameter. The agent supplies it, since only it knows the servlet
 * API; {@code request} is the container's request object.
 */
public interface KeySource {
  /** The key, or null when the request has none (such requests share one bucket). */
  String key(Object request, KeySpec spec);
}
