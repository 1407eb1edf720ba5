package io.levee.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The soak's readings of what the agent's command line and jcmd print. */
class SoakParsingTest {
  @Test
  void sumsThePassedColumnOfTheResourcesButNotTheSystemRow() {
    String status =
        """
        rules: /tmp/rules-b.yaml (4 resources, reload 1s)
        RESOURCE         KIND     MODE     BREAKER  LIMIT  IN-FLIGHT  PASSED  BLOCKED
        orders-api       servlet  enforce  -        -      0          264     rate-limit=26
        pricing-partner  http     enforce  closed   -      1          120     0
        system           servlet  enforce  -        150    0          384     0
        """;
    assertThat(SoakDriver.passed(status)).isEqualTo(384);
  }

  @Test
  void aStatusWithoutATableCountsAsNothingPassed() {
    assertThat(SoakDriver.passed("levee: Levee was detached from process 1")).isEqualTo(-1);
  }

  @Test
  void readsTheClassesOfTheTotalLineOfTheClassLoaderStatistics() throws IOException {
    String stats =
        """
        28523:
        ClassLoader         Parent              CLD*               Classes   ChunkSz   BlockSz  Type
        0x0000000000000000  0x0000000000000000  0x00007f76bc019a80    2740   1409024   1301164  <boot class loader>
                                                                        51     20864     13664   + hidden classes
        Total = 49                                                    6000   3893120   3769300
        ChunkSz: Total size of all allocated metaspace chunks
        """;
    assertThat(SoakTarget.liveClasses(stats)).isEqualTo(6000);
    assertThatThrownBy(() -> SoakTarget.liveClasses("28523:\n")).isInstanceOf(IOException.class);
  }
}
