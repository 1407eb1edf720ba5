package io.levee.bootstrap.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.pool.FakePoolThread;
import org.junit.jupiter.api.Test;

class PoolRefillTest {
  @Test
  void aConnectMadeFromAPoolsOwnCodeIsARefill() {
    assertThat(FakePoolThread.connectSeesPoolRefill()).isTrue();
  }

  @Test
  void aConnectMadeByTheApplicationIsNot() {
    assertThat(PoolRefill.onThisThread()).isFalse();
  }
}
