package io.levee.agent.args;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlArgsTest {
  @TempDir Path dir;

  @Test
  void aPlainStartIsAnAttachWithAllItsOptions() {
    ControlArgs args = ControlArgs.parse("rules=/etc/levee.yaml,log=debug");

    assertThat(args.command()).isEqualTo("attach");
    assertThat(args.needsRunningAgent()).isFalse();
    assertThat(args.reply()).isNull();
    assertThat(args.options()).isEqualTo("rules=/etc/levee.yaml,log=debug");
  }

  @Test
  void aCommandAndItsReplyFileAreTakenOutOfTheOptions() {
    ControlArgs args = ControlArgs.parse("command=reload,rules=/r.yaml,reply=/tmp/x/reply");

    assertThat(args.command()).isEqualTo("reload");
    assertThat(args.needsRunningAgent()).isTrue();
    assertThat(args.reply()).isEqualTo("/tmp/x/reply");
    assertThat(args.rules()).isEqualTo("/r.yaml");
    assertThat(args.options()).isEqualTo("rules=/r.yaml");
  }

  @Test
  void noArgumentsAtAllIsAStart() {
    assertThat(ControlArgs.parse(null).command()).isEqualTo("attach");
    assertThat(ControlArgs.parse(null).known()).isTrue();
    assertThat(ControlArgs.parse("command=explode").known()).isFalse();
  }

  @Test
  void theReplyIsWrittenForTheUserOnlyWithItsOutcomeFirst() throws Exception {
    Path file = dir.resolve("reply");

    new Reply(file.toString()).line("first").fail("then this failed").write();

    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .isEqualTo("failed\nfirst\nthen this failed\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(Files.list(dir)).containsExactly(file);
  }

  @Test
  void aReplyNobodyAskedForIsNotWritten() throws Exception {
    new Reply(null).line("nothing").write();

    assertThat(Files.list(dir)).isEmpty();
  }
}
