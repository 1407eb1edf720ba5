package io.levee.it.corpus.containers;

import java.nio.file.Path;

/** A container that answers, and the scratch directory it runs in (its base). */
record Launched(ContainerProcess process, Path base) {}
