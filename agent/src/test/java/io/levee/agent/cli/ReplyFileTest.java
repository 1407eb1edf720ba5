package io.levee.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplyFileTest {
  @TempDir Path dir;

  @Test
  void readsTheAnswer() throws IOException {
    Path reply = Files.writeString(dir.resolve("reply"), "ok\nLevee started\n");

    assertThat(ReplyFile.read(reply)).isEqualTo("ok\nLevee started\n");
  }

  @Test
  void hasNoAnswerWhenTheFileIsMissing() throws IOException {
    assertThat(ReplyFile.read(dir.resolve("reply"))).isNull();
  }

  @Test
  void refusesASymbolicLinkEvenToARegularFile() throws IOException {
    Path secret = Files.writeString(dir.resolve("secret"), "ok\nroot only\n");
    Path reply = Files.createSymbolicLink(dir.resolve("reply"), secret);

    assertThatThrownBy(() -> ReplyFile.read(reply))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a regular file");
  }

  @Test
  void refusesADirectory() throws IOException {
    Path reply = Files.createDirectory(dir.resolve("reply"));

    assertThatThrownBy(() -> ReplyFile.read(reply)).hasMessageContaining("not a regular file");
  }

  @Test
  void refusesAnAnswerLargerThanTheCap() throws IOException {
    Path reply = dir.resolve("reply");
    Files.write(reply, new byte[ReplyFile.MAX_BYTES + 1]);

    assertThatThrownBy(() -> ReplyFile.read(reply)).hasMessageContaining("larger than");
  }

  @Test
  void readsAnAnswerOfExactlyTheCap() throws IOException {
    Path reply = dir.resolve("reply");
    Files.write(reply, "x".repeat(ReplyFile.MAX_BYTES).getBytes(StandardCharsets.UTF_8));

    assertThat(ReplyFile.read(reply)).hasSize(ReplyFile.MAX_BYTES);
  }
}
