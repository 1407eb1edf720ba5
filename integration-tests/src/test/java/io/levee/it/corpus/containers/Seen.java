package io.levee.it.corpus.containers;

import java.util.List;

/**
 * What the client saw of one {@link Exchange}, normalised: status, response headers as {@code name:
 * value} lines, and the body. For a WebSocket, the status is 101 and the body is the reply.
 */
record Seen(String exchange, int status, List<String> headers, String body) {

  @Override
  public String toString() {
    return String.format("%n%s -> %d %s%n%s", exchange, status, headers, body);
  }
}
