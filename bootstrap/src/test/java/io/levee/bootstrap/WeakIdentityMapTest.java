package io.levee.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WeakIdentityMapTest {
  @Test
  void comparesKeysByIdentityNotEquality() {
    WeakIdentityMap<String> map = new WeakIdentityMap<>();
    String key = new String("k");
    map.put(key, "v");

    assertThat(map.get(key)).isEqualTo("v");
    assertThat(map.get(new String("k"))).isNull();
  }

  @Test
  void overwritesAndRemoves() {
    WeakIdentityMap<String> map = new WeakIdentityMap<>();
    Object key = new Object();
    map.put(key, "first");
    map.put(key, "second");
    assertThat(map.get(key)).isEqualTo("second");
    assertThat(map.size()).isEqualTo(1);

    map.remove(key);
    assertThat(map.get(key)).isNull();
    assertThat(map.size()).isZero();
  }

  @Test
  void dropsEntriesWhoseKeyWasCollected() throws Exception {
    WeakIdentityMap<String> map = new WeakIdentityMap<>();
    map.put(new Object(), "gone");
    for (int i = 0; i < 50 && map.size() > 0; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(map.size()).isZero();
  }
}
