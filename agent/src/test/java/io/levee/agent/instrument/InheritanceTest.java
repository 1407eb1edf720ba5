package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.instrument.sample.InheritedBase;
import io.levee.agent.log.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * A superclass that holds a target API's methods without declaring the API, woven because the JVM
 * hands it over right after a subclass that declares it ({@link Inheritance}): {@code
 * InheritingStatement extends InheritedBase implements java.sql.Statement}.
 */
class InheritanceTest {
  private static final String STATEMENT = "io/levee/agent/instrument/sample/InheritingStatement";
  private static final String BASE = "io/levee/agent/instrument/sample/InheritedBase";

  private final AgentLog log =
      new AgentLog(new PrintStream(new ByteArrayOutputStream(), true), AgentLog.Level.DEBUG);
  private final Weaver weaver =
      Weaver.forTests(TestClasses.recording("java.sql.Statement", "execute"), log);

  @Test
  void theSuperclassLoadedNextTakesTheApiTheSubclassDeclares() throws Exception {
    ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {};

    assertThat(weaver.transform(loader, STATEMENT, null, null, TestClasses.classFile(STATEMENT)))
        .isNull();
    assertThat(weaver.transform(loader, BASE, null, null, TestClasses.classFile(BASE))).isNotNull();
  }

  @Test
  void aRetransformationWeavesItAgain() throws Exception {
    ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {};
    weaver.transform(loader, STATEMENT, null, null, TestClasses.classFile(STATEMENT));
    weaver.transform(loader, BASE, null, null, TestClasses.classFile(BASE));

    assertThat(
            weaver.transform(loader, BASE, InheritedBase.class, null, TestClasses.classFile(BASE)))
        .isNotNull();
  }

  @Test
  void withoutSuchASubclassTheSuperclassIsLeftAlone() throws Exception {
    ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {};

    assertThat(weaver.transform(loader, BASE, null, null, TestClasses.classFile(BASE))).isNull();
  }

  @Test
  void aSubclassOfAnotherLoaderDoesNotCount() throws Exception {
    ClassLoader one = new ClassLoader(getClass().getClassLoader()) {};
    ClassLoader other = new ClassLoader(getClass().getClassLoader()) {};

    weaver.transform(one, STATEMENT, null, null, TestClasses.classFile(STATEMENT));
    assertThat(weaver.transform(other, BASE, null, null, TestClasses.classFile(BASE))).isNull();
  }

  @Test
  void anAttachLearnsItFromTheLoadedClasses() throws Exception {
    ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {};
    Inheritance.SHARED.learn(InheritedBase.class, SuperTypes.bit("java.sql.Statement"));

    assertThat(Inheritance.SHARED.learnt(InheritanceTest.class.getClassLoader(), BASE))
        .isEqualTo(SuperTypes.bit("java.sql.Statement"));
    assertThat(Inheritance.SHARED.learnt(loader, BASE)).isZero();
  }
}
