package io.levee.bootstrap.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OwnAnswerTest {
  @AfterEach
  void clear() {
    OwnAnswer.clear();
  }

  @Test
  void onlyTheStatusLeveeAnsweredWithOnItsThreadIsItsOwn() throws Exception {
    assertThat(OwnAnswer.isOwn(503)).isFalse();
    OwnAnswer.answered(503);

    assertThat(OwnAnswer.isOwn(503)).isTrue();
    assertThat(OwnAnswer.isOwn(503)).as("asked again: Tomcat asks twice").isTrue();
    assertThat(OwnAnswer.isOwn(400)).as("a bad request the container answers").isFalse();
    assertThat(CompletableFuture.supplyAsync(() -> OwnAnswer.isOwn(503)).get())
        .as("another thread")
        .isFalse();
    assertThat(ServletHooks.keepsConnection(503)).isNotNull();
    assertThat(ServletHooks.keepsConnection(500)).isNull();
  }

  @Test
  void theThreadsNextRequestClearsIt() {
    OwnAnswer.answered(503);
    OwnAnswer.clear();

    assertThat(OwnAnswer.isOwn(503)).isFalse();
    assertThat(ServletHooks.keepsConnection(503)).isNull();
  }
}
