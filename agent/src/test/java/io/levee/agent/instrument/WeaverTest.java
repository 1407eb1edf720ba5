package io.levee.agent.instrument;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.intArg;
import static io.levee.agent.instrument.Advice.Pass.intField;
import static io.levee.agent.instrument.Advice.Pass.self;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.agent.instrument.sample.Sample;
import io.levee.agent.log.AgentLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's transformer on a class compiled here ({@link Sample}): the woven code's contract
 * ({@link Advice}) on methods with locals, loops, handlers, wide and primitive values; what it
 * never touches; and that its own failures leave a class as it was. The woven class is defined in a
 * loader of its own, so the JVM verifies it. (The integrations on real libraries are tested by
 * their own tests and, through the packaged agent, by the integration tests.)
 */
class WeaverTest {
  private static final String SAMPLE = "io/levee/agent/instrument/sample/Sample";
  private static final Advice HOOKS = Advice.in(Recorder.class.getName());

  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log = new AgentLog(new PrintStream(logged, true), AgentLog.Level.DEBUG);
  private final ClassLoader loader = WeaverTest.class.getClassLoader();

  @BeforeEach
  void reset() {
    Recorder.CALLS.clear();
    Recorder.skip = false;
    Recorder.replace = false;
    Recorder.recover = false;
  }

  @Test
  void runsTheOriginalBetweenEnterAndExitWithItsLocalsIntact() throws Throwable {
    Object sample = woven(around("repeat"));
    int[] counter = {0};

    assertThat(call(sample, "repeat", "ab", 3L, counter)).isEqualTo("ababab");
    assertThat(counter[0]).isEqualTo(3);
    assertThat(Recorder.CALLS).containsExactly("enter ab", "exit token ababab");
    assertThat(text()).contains("instrumented io.levee.agent.instrument.sample.Sample");
  }

  @Test
  void theExitMayReplaceAReferenceResult() throws Throwable {
    Recorder.replace = true;

    assertThat(call(woven(around("repeat")), "repeat", "ab", 1L, null)).isEqualTo("replaced ab");
  }

  @Test
  void aSkippedOriginalAnswersWithWhatTheExitReturns() throws Throwable {
    Recorder.skip = true;
    Recorder.replace = true;
    int[] counter = {0};

    assertThat(call(woven(around("repeat")), "repeat", "ab", 3L, counter))
        .isEqualTo("replaced null");
    assertThat(counter[0]).isZero();
    assertThat(Recorder.CALLS).containsExactly("enter ab", "exit skip null");
  }

  @Test
  void anExceptionGoesThroughTheThrownHookAndOn() throws Throwable {
    Object sample = woven(around("fail"));

    assertThatThrownBy(() -> call(sample, "fail", "boom"))
        .isInstanceOf(IOException.class)
        .hasMessage("boom");
    assertThat(Recorder.CALLS).containsExactly("enter boom", "thrown token boom");
    Recorder.CALLS.clear();
    call(sample, "fail", (Object) null);
    assertThat(Recorder.CALLS).containsExactly("enter null", "exit token null");
  }

  @Test
  void theOriginalsOwnHandlersComeFirst() throws Throwable {
    Object sample = woven(around("caught"));

    assertThat(call(sample, "caught", -5)).isEqualTo(-1);
    assertThat(call(sample, "caught", 7)).isEqualTo(7);
    assertThat(Recorder.CALLS).noneMatch(c -> c.startsWith("thrown"));
  }

  @Test
  void primitiveAndWideArgumentsAndResultsKeepTheirValues() throws Throwable {
    Advice timed =
        HOOKS.enter("enterAny", self("java.lang.Object")).timed().exit("exitTimed", "thrownTimed");
    Object sample = woven(MethodRule.named("sum").weave(timed));

    assertThat(call(sample, "sum", 1, 10L, 2.5d)).isEqualTo(33L);
    assertThat(Recorder.CALLS).containsExactly("enterAny", "exitTimed 0 null");
  }

  @Test
  void everyReturnOfTheOriginalGoesThroughTheExit() throws Throwable {
    Object sample = woven(around("early"));

    assertThat(call(sample, "early", (Object) null)).isEqualTo("none");
    assertThat(call(sample, "early", " x ")).isEqualTo("x");
    assertThat(call(sample, "early", "  ")).isEqualTo("empty");
    assertThat(Recorder.CALLS).filteredOn(c -> c.startsWith("exit")).hasSize(3);
  }

  @Test
  void anEnterOnlyHookGetsAFieldOfTheClassAndChangesNothingElse() throws Throwable {
    Object sample =
        woven(
            MethodRule.named("disconnect")
                .weave(HOOKS.enter("field", self("java.lang.Object"), intField("responseCode"))));

    call(sample, "disconnect");
    assertThat(Recorder.CALLS).containsExactly("field -1");
  }

  @Test
  void leavesAClassThatMatchesNoRuleAsItIs() throws Throwable {
    Transformations none =
        new Transformations()
            .add(TypeRule.implementing("java.sql.Statement").methods(around("repeat")));

    assertThat(Weaver.forTests(none, log).transform(loader, SAMPLE, null, null, sampleClass()))
        .isNull();
  }

  @Test
  void neverTouchesTheAgentsOwnClassesNorOtherAgents() throws Throwable {
    Weaver agents = new Weaver(rules(around("repeat")), log, null);

    assertThat(agents.transform(loader, SAMPLE, null, null, sampleClass())).isNull();
    assertThat(agents.transform(loader, "net/bytebuddy/Sample", null, null, sampleClass()))
        .isNull();
  }

  @Test
  void leavesTheJdksOwnClassesAloneOutsideTheHttpUrlConnectionImplementation() throws Throwable {
    assertThat(
            Weaver.forTests(rules(around("repeat")), log)
                .transform(null, "java/sample/Sample", null, null, sampleClass()))
        .isNull();
  }

  @Test
  void aRecoveringAdviceEndsAVoidMethodNormallyWhenItsThrownHookAnswersNull() throws Throwable {
    Object sample =
        woven(
            MethodRule.named("fail")
                .weave(
                    HOOKS
                        .enter("enter", self("java.lang.Object"), arg(0))
                        .exit("exit", "thrown", arg(0))
                        .recovers()));

    assertThatThrownBy(() -> call(sample, "fail", "thrown on"))
        .isInstanceOf(IOException.class)
        .hasMessage("thrown on");
    Recorder.recover = true;
    assertThat(call(sample, "fail", "answered")).isNull();
    assertThat(Recorder.CALLS)
        .containsExactly(
            "enter thrown on", "thrown token thrown on", "enter answered", "thrown token answered");
  }

  @Test
  void aStaticMethodIsWovenOnlyWhenItsRuleSaysSoAndASkipAnswersFalse() throws Throwable {
    MethodRule rule =
        MethodRule.named("dropsConnection")
            .taking("(I)Z")
            .weave(HOOKS.enter("status", intArg(0)).skip(Advice.Skip.IF_NON_NULL));
    assertThat(
            Weaver.forTests(rules(rule), log).transform(loader, SAMPLE, null, null, sampleClass()))
        .as("a rule without alsoStatic")
        .isNull();

    Object sample = woven(rule.alsoStatic());
    assertThat(call(sample, "dropsConnection", 503)).isEqualTo(true);
    Recorder.skip = true;
    assertThat(call(sample, "dropsConnection", 503)).isEqualTo(false);
    assertThat(Recorder.CALLS).containsExactly("status 503", "status 503");
  }

  @Test
  void aClassFileItCannotReadStaysAsItWasAndIsLogged() throws Throwable {
    byte[] broken = sampleClass();
    // Cut off after the header: the ancestry can be read, the rest cannot.
    byte[] truncated = java.util.Arrays.copyOf(broken, broken.length - 40);

    assertThat(
            Weaver.forTests(rules(around("repeat")), log)
                .transform(loader, SAMPLE, null, null, truncated))
        .isNull();
    assertThat(text())
        .contains(
            "could not instrument io.levee.agent.instrument.sample.Sample, it runs unprotected");
  }

  // The hooks: static methods the woven Sample calls.

  private static MethodRule around(String method) {
    return MethodRule.named(method)
        .weave(
            HOOKS
                .enter("enter", self("java.lang.Object"), arg(0))
                .skip(Advice.Skip.IF_NON_NULL)
                .exit("exit", "thrown", arg(0)));
  }

  private static Transformations rules(MethodRule method) {
    return new Transformations()
        .add(TypeRule.implementing("java.net.HttpURLConnection").methods(method));
  }

  private Object woven(MethodRule method) throws Exception {
    byte[] woven =
        Weaver.forTests(rules(method), log).transform(loader, SAMPLE, null, null, sampleClass());
    assertThat(woven).isNotNull();
    Class<?> type =
        new ClassLoader(loader) {
          Class<?> define() {
            return defineClass(SAMPLE.replace('/', '.'), woven, 0, woven.length);
          }
        }.define();
    assertThat(type).isNotEqualTo(Sample.class);
    return type.getConstructor().newInstance();
  }

  private static Object call(Object target, String name, Object... args) throws Throwable {
    for (Method m : target.getClass().getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(name);
  }

  private static byte[] sampleClass() throws IOException {
    try (InputStream in =
        WeaverTest.class.getClassLoader().getResourceAsStream(SAMPLE + ".class")) {
      return in.readAllBytes();
    }
  }

  private String text() {
    return new String(logged.toByteArray(), StandardCharsets.UTF_8);
  }

  /** What the woven sample calls, and what the tests read back. */
  public static final class Recorder {
    static final List<String> CALLS = new CopyOnWriteArrayList<>();
    static volatile boolean skip;
    static volatile boolean replace;
    static volatile boolean recover;

    private Recorder() {}

    public static Object enter(Object self, Object arg) {
      CALLS.add("enter " + arg);
      return skip ? "skip" : null;
    }

    public static Object exit(Object token, Object arg, Object returned) {
      CALLS.add("exit " + (token == null ? "token" : token) + " " + returned);
      return replace ? "replaced " + returned : returned;
    }

    public static Throwable thrown(Object token, Object arg, Throwable thrown) {
      CALLS.add("thrown " + (token == null ? "token" : token) + " " + thrown.getMessage());
      return recover ? null : thrown;
    }

    public static Object status(int status) {
      CALLS.add("status " + status);
      return skip ? "skip" : null;
    }

    public static Object enterAny(Object self) {
      CALLS.add("enterAny");
      return null;
    }

    public static Object exitTimed(Object token, long start, Object returned) {
      CALLS.add("exitTimed " + start + " " + returned);
      return returned;
    }

    public static Throwable thrownTimed(Object token, long start, Throwable thrown) {
      CALLS.add("thrownTimed " + start);
      return thrown;
    }

    public static Object field(Object self, int value) {
      CALLS.add("field " + value);
      return null;
    }
  }
}
