package io.levee.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FaultsTest {
  @Test
  void faultModeIsOnForAnyValueButFalse() {
    assertThat(Faults.enabled("true")).isTrue();
    assertThat(Faults.enabled("none")).isTrue();
    assertThat(Faults.enabled("servlet-exit")).isTrue();
    assertThat(Faults.enabled("false")).isFalse();
    assertThat(Faults.enabled(null)).isFalse();
  }

  @Test
  void trueArmsTheDispatcherAndANameArmsThatPointAlone() {
    assertThat(Faults.armed("true", Faults.DISPATCHER)).isTrue();
    assertThat(Faults.armed("true", Faults.SERVLET_ENTER)).isFalse();
    assertThat(Faults.armed("servlet-exit", Faults.SERVLET_EXIT)).isTrue();
    assertThat(Faults.armed("servlet-exit", Faults.SERVLET_ENTER)).isFalse();
    assertThat(Faults.armed("none", Faults.DISPATCHER)).isFalse();
  }

  @Test
  void allArmsEveryPoint() {
    for (int p = 0; p < Faults.COUNT; p++) {
      assertThat(Faults.armed("all", p)).as(Faults.name(p)).isTrue();
      assertThat(Faults.armed("none", p)).as(Faults.name(p)).isFalse();
    }
  }

  @Test
  void everyPointHasADistinctName() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int p = 0; p < Faults.COUNT; p++) {
      assertThat(names.add(Faults.name(p))).as(Faults.name(p)).isTrue();
    }
  }

  @Test
  void outsideFaultModeNoPointThrows() {
    // The test JVM runs without the property: at() is the no-op every production call sees.
    for (int p = 0; p < Faults.COUNT; p++) {
      Faults.at(p);
      assertThat(Faults.thrown(p)).isZero();
    }
  }
}
