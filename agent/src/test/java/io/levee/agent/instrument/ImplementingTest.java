package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

class ImplementingTest {
  private final ClassLoader loader = new URLClassLoader(new URL[0]);

  @Test
  void matchesAClassThroughTheInterfaceOfItsSuperclass() {
    TypeDescription base = latent("com.example.Base", TypeDescription.Generic.OBJECT, java.sql.Driver.class);
    TypeDescription driver = latent("com.example.MyDriver", base.asGenericType());

    assertThat(matches(Implementing.anyOf("java.sql.Driver"), driver)).isTrue();
    assertThat(matches(Implementing.anyOf("javax.servlet.Servlet", "java.sql.Statement"), driver))
        .isFalse();
  }

  @Test
  void matchesAnyOfSeveralApis() {
    TypeDescription connection =
        latent("com.example.Connection", TypeDescription.ForLoadedType.of(HttpURLConnection.class).asGenericType());

    assertThat(matches(Implementing.anyOf("java.sql.Driver", "java.net.HttpURLConnection"), connection))
        .isTrue();
  }

  @Test
  void neverMatchesAnInterface() {
    TypeDescription statement = TypeDescription.ForLoadedType.of(java.sql.PreparedStatement.class);

    assertThat(matches(Implementing.anyOf("java.sql.Statement"), statement)).isFalse();
  }

  @Test
  void leavesOutWhatTheExclusionMatches() {
    TypeDescription driver =
        latent("org.example.sharded.Driver", TypeDescription.Generic.OBJECT, java.sql.Driver.class);

    Implementing matcher =
        Implementing.anyOf("java.sql.Driver")
            .unless(net.bytebuddy.matcher.ElementMatchers.nameStartsWith("org.example.sharded."));

    assertThat(matches(matcher, driver)).isFalse();
  }

  @Test
  void aClassWhoseSuperclassCannotBeDescribedDoesNotMatch() {
    DynamicType.Unloaded<?> missing =
        new ByteBuddy().subclass(Object.class).name("com.example.Missing").make();
    DynamicType.Unloaded<?> orphan =
        new ByteBuddy()
            .subclass(missing.getTypeDescription())
            .implement(java.sql.Driver.class)
            .name("com.example.Orphan")
            .make();
    TypePool pool =
        new TypePool.Default(
            new TypePool.CacheProvider.Simple(),
            ClassFileLocator.Simple.of("com.example.Orphan", orphan.getBytes()),
            TypePool.Default.ReaderMode.FAST);

    TypeDescription described = pool.describe("com.example.Orphan").resolve();

    assertThat(matches(Implementing.anyOf("java.sql.Driver"), described)).isFalse();
  }

  private boolean matches(Implementing matcher, TypeDescription type) {
    return matcher.matches(type, loader, null, null, null);
  }

  private static TypeDescription latent(
      String name, TypeDescription.Generic superClass, Class<?>... interfaces) {
    List<TypeDescription.Generic> generic = new ArrayList<>();
    for (Class<?> i : interfaces) {
      generic.add(TypeDescription.ForLoadedType.of(i).asGenericType());
    }
    return new TypeDescription.Latent(name, Modifier.PUBLIC, superClass, generic);
  }
}
