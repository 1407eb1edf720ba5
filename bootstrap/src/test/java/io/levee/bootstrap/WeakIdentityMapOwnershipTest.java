package io.levee.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The two operations for state an owner must create once and release when its object is dropped.
 */
class WeakIdentityMapOwnershipTest {
  @Test
  void putIfAbsentKeepsTheFirstValue() {
    WeakIdentityMap<String> map = new WeakIdentityMap<>();
    Object key = new Object();

    assertThat(map.putIfAbsent(key, "first")).isNull();
    assertThat(map.putIfAbsent(key, "second")).isEqualTo("first");
    assertThat(map.get(key)).isEqualTo("first");
  }

  @Test
  void pollCollectedHandsBackTheValueOfADroppedKeyOnce() throws Exception {
    WeakIdentityMap<String> map = new WeakIdentityMap<>();
    Object kept = new Object();
    map.putIfAbsent(kept, "kept");
    map.putIfAbsent(new Object(), "dropped");

    String released = null;
    for (int i = 0; i < 50 && released == null; i++) {
      System.gc();
      Thread.sleep(20);
      released = map.pollCollected();
    }

    assertThat(released).isEqualTo("dropped");
    assertThat(map.pollCollected()).isNull();
    assertThat(map.get(kept)).isEqualTo("kept");
  }
}
