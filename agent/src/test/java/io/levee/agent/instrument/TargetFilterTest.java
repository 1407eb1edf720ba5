package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.DynamicType;
import org.junit.jupiter.api.Test;

class TargetFilterTest {
  private final ClassFiles loader = new ClassFiles();
  private final TargetFilter filter = new TargetFilter();

  @Test
  void keepsAClassThatImplementsNoTargetApiAwayFromByteBuddy() throws Exception {
    byte[] plain = loader.define(new ByteBuddy().subclass(Object.class).name("com.example.Plain").make());

    assertThat(filter.cannotBeTarget(loader, "com/example/Plain", plain)).isTrue();
  }

  @Test
  void handsOnAClassWhoseSuperclassImplementsATargetApi() throws Exception {
    DynamicType.Unloaded<?> base =
        new ByteBuddy()
            .subclass(Object.class)
            .implement(java.sql.Driver.class)
            .name("com.example.BaseDriver")
            .make();
    loader.define(base);
    byte[] driver =
        loader.define(
            new ByteBuddy().subclass(base.getTypeDescription()).name("com.example.MyDriver").make());

    assertThat(filter.cannotBeTarget(loader, "com/example/MyDriver", driver)).isFalse();
  }

  @Test
  void handsOnAClassWhoseAncestryItCannotRead() throws Exception {
    DynamicType.Unloaded<?> missing =
        new ByteBuddy().subclass(Object.class).name("com.example.Missing").make();
    byte[] orphan =
        new ByteBuddy().subclass(missing.getTypeDescription()).name("com.example.Orphan").make().getBytes();

    assertThat(filter.cannotBeTarget(loader, "com/example/Orphan", orphan)).isFalse();
  }

  @Test
  void handsOnBytesItCannotRead() {
    assertThat(filter.cannotBeTarget(loader, "com/example/Broken", new byte[] {1, 2, 3})).isFalse();
  }

  @Test
  void passesOnlyTheHttpUrlConnectionImplementationOfTheJdk() throws Exception {
    String implementation = "sun/net/www/protocol/http/HttpURLConnection";
    byte[] list = ClassHeaderTest.classFile(java.util.ArrayList.class);
    byte[] connection;
    try (InputStream in = ClassLoader.getSystemResourceAsStream(implementation + ".class")) {
      connection = in.readAllBytes();
    }

    assertThat(filter.cannotBeTarget(null, "java/util/ArrayList", list)).isTrue();
    assertThat(filter.cannotBeTarget(null, implementation, connection)).isFalse();
  }

  /** A loader that serves the class files of generated types as resources, defining nothing. */
  private static final class ClassFiles extends ClassLoader {
    private final Map<String, byte[]> files = new HashMap<String, byte[]>();

    ClassFiles() {
      super(TargetFilterTest.class.getClassLoader());
    }

    byte[] define(DynamicType.Unloaded<?> type) {
      byte[] bytes = type.getBytes();
      files.put(type.getTypeDescription().getInternalName() + ".class", bytes);
      return bytes;
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      byte[] bytes = files.get(name);
      return bytes != null ? new ByteArrayInputStream(bytes) : super.getResourceAsStream(name);
    }
  }
}
