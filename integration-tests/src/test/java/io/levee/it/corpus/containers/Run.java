package io.levee.it.corpus.containers;

import java.util.List;

/**
 * What one run of a container showed from outside: the responses to its fixed list of requests, the
 * warnings and errors it logged, and how its JVM ended on SIGTERM.
 */
record Run(List<Seen> seen, List<String> complaints, int exitStatus) {}
