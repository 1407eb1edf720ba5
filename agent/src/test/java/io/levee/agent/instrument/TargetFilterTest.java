package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatchers;
import org.junit.jupiter.api.Test;

class TargetFilterTest {
  private final ClassFiles loader = new ClassFiles();
  private final Recording delegate = new Recording();
  private final ClassFileTransformer filter = TargetFilter.decorator().decorate(delegate);

  @Test
  void keepsAClassThatImplementsNoTargetApiAwayFromByteBuddy() throws Exception {
    byte[] plain = loader.define(new ByteBuddy().subclass(Object.class).name("com.example.Plain").make());

    filter.transform(loader, "com/example/Plain", null, null, plain);

    assertThat(delegate.seen).isEmpty();
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

    filter.transform(loader, "com/example/MyDriver", null, null, driver);

    assertThat(delegate.seen).containsExactly("com/example/MyDriver");
  }

  @Test
  void handsOnAClassWhoseAncestryItCannotRead() throws Exception {
    DynamicType.Unloaded<?> missing =
        new ByteBuddy().subclass(Object.class).name("com.example.Missing").make();
    byte[] orphan =
        new ByteBuddy().subclass(missing.getTypeDescription()).name("com.example.Orphan").make().getBytes();

    filter.transform(loader, "com/example/Orphan", null, null, orphan);

    assertThat(delegate.seen).containsExactly("com/example/Orphan");
  }

  @Test
  void handsOnBytesItCannotReadAndEveryRetransformation() throws Exception {
    byte[] plain = loader.define(new ByteBuddy().subclass(Object.class).name("com.example.Again").make());

    filter.transform(loader, "com/example/Broken", null, null, new byte[] {1, 2, 3});
    filter.transform(loader, "com/example/Again", TargetFilterTest.class, null, plain);

    assertThat(delegate.seen).containsExactly("com/example/Broken", "com/example/Again");
  }

  @Test
  void passesOnlyTheHttpUrlConnectionImplementationOfTheJdk() throws Exception {
    String implementation = "sun/net/www/protocol/http/HttpURLConnection";
    byte[] list = ClassHeaderTest.classFile(java.util.ArrayList.class);
    byte[] connection;
    try (InputStream in = ClassLoader.getSystemResourceAsStream(implementation + ".class")) {
      connection = in.readAllBytes();
    }

    filter.transform(null, "java/util/ArrayList", null, null, list);
    filter.transform(null, implementation, null, null, connection);

    assertThat(delegate.seen).containsExactly(implementation);
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

  /** A real ByteBuddy transformer that matches nothing, recording which classes reach it. */
  private static final class Recording extends ResettableClassFileTransformer.WithDelegation {
    final List<String> seen = new ArrayList<String>();

    Recording() {
      super(
          (ResettableClassFileTransformer)
              new AgentBuilder.Default().type(ElementMatchers.none()).transform(
                  (builder, type, loader, module, domain) -> builder).makeRaw());
    }

    @Override
    public byte[] transform(
        ClassLoader loader,
        String name,
        Class<?> classBeingRedefined,
        ProtectionDomain domain,
        byte[] bytes) {
      seen.add(name);
      return null;
    }
  }
}
