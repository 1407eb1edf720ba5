package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ClassHeaderTest {
  @Test
  void readsTheSuperclassAndTheInterfacesOfAClass() throws IOException {
    ClassHeader header = ClassHeader.read(classFile(java.util.ArrayList.class));

    assertThat(header.superName).isEqualTo("java.util.AbstractList");
    assertThat(header.interfaces)
        .containsExactly(
            "java.util.List",
            "java.util.RandomAccess",
            "java.lang.Cloneable",
            "java.io.Serializable");
    assertThat(header.isInterface).isFalse();
  }

  @Test
  void readsAnInterfaceAndTheInterfacesItExtends() throws IOException {
    ClassHeader header = ClassHeader.read(classFile(java.sql.PreparedStatement.class));

    assertThat(header.isInterface).isTrue();
    assertThat(header.interfaces).containsExactly("java.sql.Statement");
  }

  @Test
  void findsADeclaredMethodPastFieldsWithAttributesAndMethodsWithCode() throws IOException {
    // Long has constant fields (ConstantValue attributes) before its methods.
    ClassHeader header = ClassHeader.read(classFile(Long.class));

    assertThat(
            header.declaresAny(
                (access, name, descriptor) ->
                    name.equals("parseLong") && descriptor.equals("(Ljava/lang/String;)J")))
        .isTrue();
    assertThat(header.declaresAny((access, name, descriptor) -> name.equals("parseInt"))).isFalse();
    // Only its own methods: Object's are not Long's.
    assertThat(header.declaresAny((access, name, descriptor) -> name.equals("wait"))).isFalse();
  }

  @Test
  void objectHasNoSuperclass() throws IOException {
    assertThat(ClassHeader.read(classFile(Object.class)).superName).isNull();
  }

  @Test
  void skipsTheTwoSlotsOfLongAndDoubleConstants() throws IOException {
    // Long and Double declare long and double constants in their constant pools.
    assertThat(ClassHeader.read(classFile(Long.class)).superName).isEqualTo("java.lang.Number");
    assertThat(ClassHeader.read(classFile(Double.class)).interfaces)
        .contains("java.lang.Comparable");
  }

  @Test
  void decodesNamesBeyondAscii() throws IOException {
    ClassHeader header = ClassHeader.read(classFile(Café.class));

    assertThat(header.superName).isEqualTo("io.levee.agent.instrument.ClassHeaderTest$Crème");
  }

  @Test
  void givesNothingForBytesItCannotRead() throws IOException {
    byte[] bytes = classFile(java.util.ArrayList.class);

    assertThat(ClassHeader.read(Arrays.copyOf(bytes, 200))).isNull();
    assertThat(ClassHeader.read(new byte[] {1, 2, 3})).isNull();
    assertThat(ClassHeader.read("not a class file at all".getBytes("UTF-8"))).isNull();
  }

  static byte[] classFile(Class<?> type) throws IOException {
    String path = type.getName().replace('.', '/') + ".class";
    ClassLoader loader =
        type.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : type.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(path)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    }
  }

  static class Crème {}

  static class Café extends Crème {}
}
