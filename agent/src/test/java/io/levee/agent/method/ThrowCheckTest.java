package io.levee.agent.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.match.MethodPlan;
import io.levee.rules.model.RuleSet;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import methodfixtures.Fixtures;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The checks made against the loaded classes before method resources are put in force: the
 * exception a blocked call throws must be one every woven method can throw, and the resources may
 * name at most {@link MethodWeaving#MAX_CLASSES} classes.
 */
class ThrowCheckTest {
  private static final String PRICED =
      "version: 1\nresources:\n"
          + "  - name: pricing\n"
          + "    match: { method: { class: methodfixtures.Fixtures$Priced } }\n"
          + "    concurrency: { max: 1 }\n"
          + "    on-block: { throw: %s }\n";

  private static List<RuleError> check(String yaml, Class<?>... loaded) {
    LoadResult result = RulesLoader.parse("rules.yaml", yaml);
    assertThat(result.errors()).isEmpty();
    RuleSet rules = result.rules();
    return ThrowCheck.check(new Loaded(loaded), loaded, "rules.yaml", rules, MethodPlan.of(rules));
  }

  @Test
  void onlyTheClassesItIsGivenAreCheckedNotAllThatAreLoadedNow() {
    RuleSet rules =
        RulesLoader.parse(
                "rules.yaml", String.format(PRICED, "methodfixtures.Fixtures$CheckedFailure"))
            .rules();
    // At JVM start the check sees the classes loaded when the agent began, not those the
    // application loaded while the rules were read.
    Loaded now = new Loaded(new Class<?>[] {Fixtures.PricedImpl.class});
    assertThat(ThrowCheck.check(now, new Class<?>[0], "rules.yaml", rules, MethodPlan.of(rules)))
        .isEmpty();
  }

  @Test
  void aCheckedExceptionAWovenMethodDoesNotDeclareIsALocatedErrorNamingTheMethod() {
    List<RuleError> errors =
        check(
            String.format(PRICED, "methodfixtures.Fixtures$CheckedFailure"),
            Fixtures.PricedImpl.class,
            Fixtures.Unmarked.class);
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).toString())
        .isEqualTo(
            "rules.yaml:6:24: resources[0].on-block.throw: methodfixtures.Fixtures$CheckedFailure"
                + " is a checked exception that"
                + " methodfixtures.Fixtures$PricedImpl.quote(java.lang.String) does not declare;"
                + " name an unchecked exception or one the method declares");
  }

  @Test
  void anExceptionTheWovenMethodsCanThrowPasses() {
    assertThat(
            check(
                String.format(PRICED, "methodfixtures.Fixtures$UncheckedFailure"),
                Fixtures.PricedImpl.class))
        .isEmpty();
    assertThat(check(String.format(PRICED, "java.io.IOException"), Fixtures.PricedImpl.class))
        .as("PricedImpl.quote does not declare IOException")
        .hasSize(1);
    assertThat(check(String.format(PRICED, "java.io.IOException"))).as("nothing loaded").isEmpty();
  }

  @Test
  void anExceptionNotFoundOrWithoutAMessageConstructorIsAnError() {
    assertThat(check(String.format(PRICED, "com.acme.NoSuchException"), Fixtures.PricedImpl.class))
        .extracting(RuleError::message)
        .containsExactly(
            "com.acme.NoSuchException is not found from the class loader of"
                + " methodfixtures.Fixtures$PricedImpl");
    assertThat(check(String.format(PRICED, "java.lang.String"), Fixtures.PricedImpl.class))
        .extracting(RuleError::message)
        .containsExactly("java.lang.String is not an exception");
  }

  @Test
  void moreLoadedClassesThanTheBoundIsAnErrorAtTheMatch() throws Exception {
    Class<?>[] many = generated(MethodWeaving.MAX_CLASSES + 1);
    String yaml =
        "version: 1\nresources:\n"
            + "  - name: everything\n"
            + "    match: { method: { class: \"generated.*\" } }\n"
            + "    concurrency: { max: 1 }\n";
    assertThat(check(yaml, many))
        .extracting(RuleError::toString)
        .containsExactly(
            "rules.yaml:4:14: resources[0].match.method: the method resources name 2001 loaded"
                + " classes, more than the 2000 they may weave; narrow their class patterns (a"
                + " package, a class name or an interface of your own)");
    Class<?>[] fewer = new Class<?>[MethodWeaving.MAX_CLASSES];
    System.arraycopy(many, 0, fewer, 0, fewer.length);
    assertThat(check(yaml, fewer)).isEmpty();
  }

  /** {@code n} small classes {@code generated.C0...}, each with one public method. */
  private static Class<?>[] generated(int n) throws ClassNotFoundException {
    final List<byte[]> bytes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
      w.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "generated/C" + i, null, "java/lang/Object", null);
      MethodVisitor m = w.visitMethod(Opcodes.ACC_PUBLIC, "work", "()V", null, null);
      m.visitCode();
      m.visitInsn(Opcodes.RETURN);
      m.visitMaxs(0, 1);
      m.visitEnd();
      w.visitEnd();
      bytes.add(w.toByteArray());
    }
    ClassLoader loader =
        new ClassLoader(ThrowCheckTest.class.getClassLoader()) {
          @Override
          protected Class<?> findClass(String name) throws ClassNotFoundException {
            int i = Integer.parseInt(name.substring("generated.C".length()));
            byte[] b = bytes.get(i);
            return defineClass(name, b, 0, b.length);
          }
        };
    Class<?>[] classes = new Class<?>[n];
    for (int i = 0; i < n; i++) {
      classes[i] = loader.loadClass("generated.C" + i);
    }
    return classes;
  }

  /** The loaded classes a check sees: these, all modifiable. */
  private static final class Loaded implements Instrumentation {
    private final Class<?>[] classes;

    Loaded(Class<?>[] classes) {
      this.classes = classes;
    }

    @Override
    public Class<?>[] getAllLoadedClasses() {
      return classes.clone();
    }

    @Override
    public boolean isModifiableClass(Class<?> theClass) {
      return true;
    }

    @Override
    public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {}

    @Override
    public void addTransformer(ClassFileTransformer transformer) {}

    @Override
    public boolean removeTransformer(ClassFileTransformer transformer) {
      return false;
    }

    @Override
    public boolean isRetransformClassesSupported() {
      return false;
    }

    @Override
    public void retransformClasses(Class<?>... classes) {}

    @Override
    public boolean isRedefineClassesSupported() {
      return false;
    }

    @Override
    public void redefineClasses(ClassDefinition... definitions) {}

    @Override
    public Class<?>[] getInitiatedClasses(ClassLoader loader) {
      return new Class<?>[0];
    }

    @Override
    public long getObjectSize(Object objectToSize) {
      return 0;
    }

    @Override
    public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {}

    @Override
    public void appendToSystemClassLoaderSearch(JarFile jarfile) {}

    @Override
    public boolean isNativeMethodPrefixSupported() {
      return false;
    }

    @Override
    public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {}

    @Override
    public void redefineModule(
        Module module,
        java.util.Set<Module> extraReads,
        java.util.Map<String, java.util.Set<Module>> extraExports,
        java.util.Map<String, java.util.Set<Module>> extraOpens,
        java.util.Set<Class<?>> extraUses,
        java.util.Map<Class<?>, List<Class<?>>> extraProvides) {}

    @Override
    public boolean isModifiableModule(Module module) {
      return false;
    }
  }
}
