package io.levee.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.implementation.StubMethod;
import org.junit.jupiter.api.Test;

/**
 * The agent's transformer on class files made here: what it weaves, what it never touches, and that
 * its own failures leave a class as it was. (The integrations' advice on real libraries is tested by
 * their own tests and, through the packaged agent, by the integration tests.)
 */
class WeaverTest {
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(new PrintStream(logged, true), AgentLog.Level.DEBUG);
  private final ClassLoader loader = WeaverTest.class.getClassLoader();

  @Test
  void weavesTheMatchedMethodOfAClassThatExtendsATargetApi() throws Exception {
    byte[] original = connectionClass("sample.Connection");

    byte[] woven = weaver().transform(loader, "sample/Connection", null, null, original);

    assertThat(woven).isNotNull().isNotEqualTo(original);
    assertThat(greet(define("sample.Connection", original))).isEqualTo("hello");
    assertThat(greet(define("sample.Connection", woven))).isEqualTo("hello, woven");
    assertThat(text()).contains("instrumented sample.Connection");
  }

  @Test
  void leavesAClassThatMatchesNoTransformationAsItIs() {
    byte[] original = connectionClass("sample.Other");

    assertThat(weaver().transform(loader, "sample/Other", null, null, original)).isNull();
  }

  @Test
  void neverTouchesTheAgentsOwnClassesNorOtherAgents() {
    Transformations anything =
        new Transformations().add(named("io.levee.sample.Connection"), greetingAdvice());
    Weaver weaver = new Weaver(anything, log);

    assertThat(
            weaver.transform(
                loader, "io/levee/sample/Connection", null, null, connectionClass("io.levee.sample.Connection")))
        .isNull();
    assertThat(
            weaver.transform(
                loader, "net/bytebuddy/Sample", null, null, connectionClass("net.bytebuddy.Sample")))
        .isNull();
  }

  @Test
  void leavesTheJdksOwnClassesAloneOutsideTheHttpUrlConnectionImplementation() {
    Transformations anything = new Transformations().add(named("java.sample.Connection"), greetingAdvice());

    assertThat(
            new Weaver(anything, log)
                .transform(null, "java/sample/Connection", null, null, connectionClass("java.sample.Connection")))
        .isNull();
  }

  @Test
  void aClassFileItCannotReadStaysAsItWasAndIsLogged() {
    byte[] broken = connectionClass("sample.Connection");
    // A constant pool entry of an unknown kind: ASM, and so the weave, cannot parse the class.
    broken[10] = (byte) 99;

    assertThat(weaver().transform(loader, "sample/Connection", null, null, broken)).isNull();
    assertThat(text()).contains("could not instrument sample.Connection, it runs unprotected");
  }

  private Weaver weaver() {
    return new Weaver(new Transformations().add(named("sample.Connection"), greetingAdvice()), log);
  }

  private static net.bytebuddy.agent.builder.AgentBuilder.Transformer greetingAdvice() {
    return AdviceSupport.advice(WeaverTest.class).advice(named("greet"), GreetingAdvice.class.getName());
  }

  /** A subclass of {@link HttpURLConnection} (a target API) with a method {@code greet()}. */
  private static byte[] connectionClass(String name) {
    return new ByteBuddy()
        .subclass(HttpURLConnection.class)
        .name(name)
        .method(isAbstract())
        .intercept(StubMethod.INSTANCE)
        .defineMethod("greet", String.class, Visibility.PUBLIC)
        .intercept(FixedValue.value("hello"))
        .make()
        .getBytes();
  }

  private Class<?> define(String name, byte[] bytes) {
    return new ClassLoader(loader) {
      Class<?> define() {
        return defineClass(name, bytes, 0, bytes.length);
      }
    }.define();
  }

  private static String greet(Class<?> type) throws Exception {
    Object connection = type.getConstructor(URL.class).newInstance(new URL("http://127.0.0.1/"));
    return (String) type.getMethod("greet").invoke(connection);
  }

  private String text() {
    return new String(logged.toByteArray(), StandardCharsets.UTF_8);
  }

  /** Appends to what {@code greet()} returns. */
  public static final class GreetingAdvice {
    private GreetingAdvice() {}

    @Advice.OnMethodExit
    public static void exit(@Advice.Return(readOnly = false) String greeting) {
      greeting = greeting + ", woven";
    }
  }
}
