package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.corpus.http.JdkClientExchanges;
import io.levee.it.apps.corpus.http.UrlConnectionExchanges;
import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every outbound HTTP client Levee weaves, driven the same way ({@code ClientExchanges}: answers,
 * errors, a redirect, chunked and gzipped bodies, a refused port) in each {@link Way}: the client
 * must give its application the same answers and exceptions, byte for byte, with the agent in, with
 * monitor rules deciding on every call, and with faults forced in the agent's code.
 */
class HttpClientsCorpusIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** A client: its name, its main class, the class path it runs with, the JDKs it runs on. */
  record Client(String name, String main, String classPath, List<Integer> jdks) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> clients() {
    String app = TestPaths.applicationClassPath();
    List<Client> clients =
        List.of(
            new Client(
                "url-connection", UrlConnectionExchanges.class.getName(), app, List.of(17, 25)),
            new Client("jdk-client", JdkClientExchanges.class.getName(), app, List.of(17, 25)));
    return clients.stream().flatMap(c -> c.jdks().stream().map(jdk -> Arguments.of(c, jdk)));
  }

  @ParameterizedTest(name = "{0} on JDK {1}")
  @MethodSource("clients")
  void theClientGivesTheSameAnswersEveryWay(Client client, int feature) throws IOException {
    Jdk jdk = Jdk.require(feature);
    String subject = "http-" + client.name() + "-jdk" + feature;
    Map<Way, Outcome> seen = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      Path work = Files.createDirectories(Way.dir().resolve(subject + "-" + way));
      JvmCommand jvm =
          JvmProcess.java(jdk.home())
              .options("-Xmx256m")
              .options(way.jvmOptions(subject))
              .main(client.classPath(), client.main());
      seen.put(way, Outcome.run(subject + "-" + way, jvm, work, Map.of(), TIMEOUT));
    }

    Outcome plain = seen.get(Way.PLAIN);
    assertThat(plain.exit()).as(plain.stderr()).isZero();
    assertThat(plain.stdout()).contains("text 200 ", "broken 500 ", "refused ", "done");
    Transparency.assertSame(subject, seen);
  }
}
