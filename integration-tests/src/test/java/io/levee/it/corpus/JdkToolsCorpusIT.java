package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.corpus.JdkTools;
import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's own tools in-process, three ways ({@link Way}), on JDK 17 and 25: the source launcher
 * running a one-file program, and {@link JdkTools} (a {@code jrt:} URL, ASM reading JDK classes by
 * name, the runtime image's file system, {@code javax.tools} javac). Each once threw {@code
 * ClassCircularityError} under the agent, with no rules at all.
 */
class JdkToolsCorpusIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {17, 25})
  void theSourceLauncherRunsAProgramTheSameWay(int feature) throws IOException {
    Jdk jdk = Jdk.require(feature);
    Path dir = Files.createDirectories(Way.dir().resolve("source-launcher-" + feature));
    Files.writeString(
        dir.resolve("Hello.java"),
        "public class Hello { public static void main(String[] a) {"
            + " System.out.println(\"hello \" + String.join(\",\", a)); } }\n");
    String subject = "source-launcher-jdk" + feature;
    Map<Way, Outcome> seen = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      JvmCommand jvm = jvm(jdk, way, subject).sourceFile("Hello.java").args("a", "b");
      seen.put(way, Outcome.run(subject + "-" + way, jvm, dir, Map.of(), TIMEOUT));
    }

    assertThat(seen.get(Way.PLAIN)).isEqualTo(new Outcome(0, "hello a,b\n", ""));
    Transparency.assertSame(subject, seen);
  }

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {17, 25})
  void javacAsmAndJrtInProcessGiveTheSameResults(int feature) throws IOException {
    Jdk jdk = Jdk.require(feature);
    String subject = "jdk-tools-jdk" + feature;
    Map<Way, Outcome> seen = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      Path work = Files.createDirectories(Way.dir().resolve(subject + "-" + way));
      JvmCommand jvm =
          jvm(jdk, way, subject)
              .main(TestPaths.applicationClassPath(), JdkTools.class.getName())
              .args(work.toString());
      seen.put(way, Outcome.run(subject + "-" + way, jvm, work, Map.of(), TIMEOUT));
    }

    Outcome plain = seen.get(Way.PLAIN);
    assertThat(plain.exit()).as(plain.stderr()).isZero();
    assertThat(plain.stdout())
        .contains(
            "jrt url ",
            "asm java.sql.Statement extends java/lang/Object",
            "javac status 0",
            "hello, corpus");
    Transparency.assertSame(subject, seen);
    // The record javac compiled in the run, loaded from its class files (of the JDK's own class
    // file version) and called: woven for a method resource as it loaded.
    MethodResources.assertWoven(subject, 1, "corpus\\.Greeting");
  }

  /**
   * As the corpus's other subjects, the same every way: a small serial heap, and the C1 compiler
   * only, as these runs of a few seconds are start-up bound (a fifth less time). What the corpus
   * looks for here is in class loading, which the compiler tier does not change.
   */
  private static JvmCommand jvm(Jdk jdk, Way way, String subject) {
    return JvmProcess.java(jdk.home())
        .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .options(way.jvmOptions(subject));
  }
}
