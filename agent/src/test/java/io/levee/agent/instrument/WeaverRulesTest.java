package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.http.HttpUrlConnectionIntegration;
import io.levee.agent.log.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Each rule of what a transform may do ({@link Weaver}'s class comment), shown on a class that
 * reaches its target API through an application ancestor: {@code LeafConnection extends
 * BaseConnection extends java.net.HttpURLConnection}. The defining loader records what the
 * transform asks of it.
 */
class WeaverRulesTest {
  private static final String LEAF = "io/levee/agent/instrument/sample/LeafConnection";
  private static final String BASE = "io/levee/agent/instrument/sample/BaseConnection";

  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log = new AgentLog(new PrintStream(logged, true), AgentLog.Level.DEBUG);
  private final Weaver weaver =
      Weaver.forTests(TestClasses.recording("java.net.HttpURLConnection", "read"), log);

  @Test
  void readsAnApplicationAncestorThroughItsLoaderAndLoadsNoClass() throws Exception {
    RecordingLoader loader = new RecordingLoader();

    assertThat(weaver.transform(loader, LEAF, null, null, TestClasses.classFile(LEAF))).isNotNull();
    assertThat(loader.resources).containsExactly(BASE + ".class");
    assertThat(loader.loaded).isEmpty();
  }

  @Test
  void neverReadsAJdkClassFileTheJdkTypesAreFromTheTable() throws Exception {
    RecordingLoader loader = new RecordingLoader();

    weaver.transform(loader, LEAF, null, null, TestClasses.classFile(LEAF));

    // BaseConnection's ancestors java.net.HttpURLConnection, URLConnection and Object are the
    // JDK's.
    assertThat(loader.resources).noneMatch(r -> r.startsWith("java/"));
    assertThat(JdkTypes.mask("java.net.HttpURLConnection"))
        .isEqualTo(SuperTypes.bit("java.net.HttpURLConnection"));
  }

  @Test
  void readsNothingThroughTheBootLoader() throws Exception {
    // A class of the boot class path (-Xbootclasspath/a) whose ancestor is not the JDK's: the boot
    // loader would read that ancestor's class file through the JDK's own handlers, so the answer is
    // not had (through the system loader it would be: BaseConnection is on the class path).
    ClassHeader leaf = ClassHeader.read(TestClasses.classFile(LEAF));

    assertThat(new SuperTypes().mask(LEAF.replace('/', '.'), leaf, null)).isEqualTo(-1);
    assertThat(new SuperTypes().mask(LEAF.replace('/', '.'), leaf, new RecordingLoader()))
        .isEqualTo(SuperTypes.bit("java.net.HttpURLConnection"));
  }

  @Test
  void aBootLoaderClassOutsideTheTableIsNotLookedAt() throws Exception {
    assertThat(weaver.transform(null, LEAF, null, null, TestClasses.classFile(LEAF))).isNull();
    assertThat(text()).doesNotContain("LeafConnection");
  }

  @Test
  void anAncestorTheLoaderCannotShowLeavesTheClassWithADebugLine() throws Exception {
    RecordingLoader loader = new RecordingLoader();
    loader.hidden = BASE + ".class";

    assertThat(weaver.transform(loader, LEAF, null, null, TestClasses.classFile(LEAF))).isNull();
    assertThat(text()).contains("left io.levee.agent.instrument.sample.LeafConnection as it is");
    assertThat(text()).doesNotContain("could not instrument");
  }

  @Test
  void aClassLoadedWhileItWeavesIsLeftAsItIs() throws Exception {
    RecordingLoader loader = new RecordingLoader();
    // The loader, reading BaseConnection's class file, defines another class: the JVM would call
    // the transformer again on this thread.
    loader.onRead = () -> loader.nested.add(transform(loader, LEAF));

    assertThat(weaver.transform(loader, LEAF, null, null, TestClasses.classFile(LEAF))).isNotNull();
    assertThat(loader.nested).containsExactly((byte[]) null);
  }

  @Test
  void ofTheJdksClassesOnlyTheTablesAreLookedAt() throws Exception {
    Weaver http = Weaver.forTests(List.of(new HttpUrlConnectionIntegration()), log);

    // The jrt: handler's connection declares getInputStream like a target, and is left alone.
    assertThat(
            http.transform(
                null,
                "sun/net/www/protocol/jrt/JavaRuntimeURLConnection",
                null,
                null,
                jdkClassFile("java.base", "sun/net/www/protocol/jrt/JavaRuntimeURLConnection")))
        .isNull();
    // The HttpURLConnection implementation is woven, its ancestry from the table alone.
    assertThat(
            http.transform(
                null,
                "sun/net/www/protocol/http/HttpURLConnection",
                null,
                null,
                jdkClassFile("java.base", "sun/net/www/protocol/http/HttpURLConnection")))
        .isNotNull();
    assertThat(text()).contains("instrumented sun.net.www.protocol.http.HttpURLConnection");
  }

  private byte[] transform(ClassLoader loader, String name) {
    try {
      return weaver.transform(loader, name, null, null, TestClasses.classFile(name));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] jdkClassFile(String module, String internalName) throws IOException {
    return Files.readAllBytes(
        FileSystems.getFileSystem(URI.create("jrt:/"))
            .getPath("/modules", module, internalName + ".class"));
  }

  private String text() {
    return new String(logged.toByteArray(), StandardCharsets.UTF_8);
  }

  /** Serves the test's class files and records what is asked of it. */
  private static final class RecordingLoader extends ClassLoader {
    final List<String> resources = new CopyOnWriteArrayList<>();
    final List<String> loaded = new CopyOnWriteArrayList<>();
    final List<byte[]> nested = new CopyOnWriteArrayList<>();
    volatile String hidden;
    volatile Runnable onRead;

    RecordingLoader() {
      super(WeaverRulesTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      loaded.add(name);
      return super.loadClass(name, resolve);
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      resources.add(name);
      Runnable hook = onRead;
      if (hook != null) {
        onRead = null;
        hook.run();
      }
      return name.equals(hidden) ? null : super.getResourceAsStream(name);
    }
  }
}
