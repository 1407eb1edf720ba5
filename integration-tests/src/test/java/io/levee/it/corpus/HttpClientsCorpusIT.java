package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.corpus.http.Apache4Exchanges;
import io.levee.it.apps.corpus.http.Apache5AsyncExchanges;
import io.levee.it.apps.corpus.http.Apache5Exchanges;
import io.levee.it.apps.corpus.http.JdkClientExchanges;
import io.levee.it.apps.corpus.http.OkHttpExchanges;
import io.levee.it.apps.corpus.http.UrlConnectionExchanges;
import io.levee.it.support.ClientLines;
import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every outbound HTTP client Levee weaves, driven the same way ({@code ClientExchanges}: answers,
 * errors, a redirect, chunked and gzipped bodies, a refused port) in each {@link Way}: the client
 * must give its application the same answers and exceptions, byte for byte, with the agent in, with
 * monitor rules deciding on every call, and with faults forced in the agent's code. Two clients run
 * at a time: each has its own partner, in its own JVM, and files of its own.
 */
class HttpClientsCorpusIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /**
   * A client: its name, its main class, the class path it runs with, the JDKs it runs on, and a
   * class of its library that the corpus's method resources must weave (null for the JDK's clients,
   * whose code no method resource may name).
   */
  record Client(String name, String main, String classPath, List<Integer> jdks, String woven) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> clients() {
    String app = TestPaths.applicationClassPath();
    List<Client> clients = new ArrayList<>();
    clients.add(new Client("url-connection", main(UrlConnectionExchanges.class), app, BOTH, null));
    clients.add(new Client("jdk-client", main(JdkClientExchanges.class), app, BOTH, null));
    clients.add(new Client("apache-4.5", main(Apache4Exchanges.class), app, JDK17, APACHE4));
    clients.add(new Client("apache-5-classic", main(Apache5Exchanges.class), app, JDK17, APACHE5));
    clients.add(new Client("apache-5-async", main(Apache5AsyncExchanges.class), app, JDK17, ASYNC));
    clients.add(new Client("okhttp-4.12", main(OkHttpExchanges.class), app, JDK17, OKHTTP));
    clients.add(
        new Client("okhttp-3.14", main(OkHttpExchanges.class), line("okhttp3"), JDK17, OKHTTP));
    clients.add(
        new Client("okhttp-5", main(OkHttpExchanges.class), line("okhttp5"), JDK17, OKHTTP));
    return clients.stream().flatMap(c -> c.jdks().stream().map(jdk -> Arguments.of(c, jdk)));
  }

  private static final String APACHE4 = "org\\.apache\\.http\\.impl\\.execchain\\.MainClientExec";
  private static final String APACHE5 =
      "org\\.apache\\.hc\\.client5\\.http\\.impl\\.classic\\.MainClientExec";
  private static final String ASYNC = "org\\.apache\\.hc\\.client5\\.http\\.impl\\.async\\..*";

  /** {@code okhttp3.RealCall} in 3.14, {@code okhttp3.internal.connection.RealCall} later. */
  private static final String OKHTTP = "okhttp3\\.(internal\\.connection\\.)?RealCall";

  private static final List<Integer> BOTH = List.of(17, 25);
  private static final List<Integer> JDK17 = List.of(17);

  private static String main(Class<?> exchanges) {
    return exchanges.getName();
  }

  private static String line(String line) {
    return ClientLines.applicationClassPath(line);
  }

  @ParameterizedTest(name = "{0} on JDK {1}")
  @MethodSource("clients")
  @Execution(ExecutionMode.CONCURRENT)
  void theClientGivesTheSameAnswersEveryWay(Client client, int feature) throws IOException {
    Jdk jdk = Jdk.require(feature);
    String subject = "http-" + client.name() + "-jdk" + feature;
    Map<Way, Outcome> seen = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      Path work = Files.createDirectories(Way.dir().resolve(subject + "-" + way));
      JvmCommand jvm =
          JvmProcess.java(jdk.home())
              // As the corpus's other subjects, the same every way: a small serial heap, and the
              // C1 compiler only, as a run of a few seconds is start-up bound (a sixth less time).
              // The tier compiles the same bytecode, woven or not; the answers cannot tell.
              .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
              .options(way.jvmOptions(subject))
              .main(client.classPath(), client.main());
      seen.put(way, Outcome.run(subject + "-" + way, jvm, work, Map.of(), TIMEOUT));
    }

    Outcome plain = seen.get(Way.PLAIN);
    assertThat(plain.exit()).as(plain.stderr()).isZero();
    assertThat(plain.stdout()).contains("text 200 ", "broken 500 ", "refused ", "done");
    Transparency.assertSame(subject, seen);
    if (client.woven() != null) {
      MethodResources.assertWoven(subject, 20, client.woven());
    }
  }
}
