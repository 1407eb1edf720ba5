package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import methodfixtures.Statics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The code woven around a method a {@code method} resource names, static or not, runs the method
 * unchanged, reports each outcome once, and throws what the dispatcher makes of a block.
 */
class MethodAdviceTest {
  private static final String STATICS = "methodfixtures/Statics";

  private final List<String> seen = new CopyOnWriteArrayList<>();
  private volatile boolean block;

  private final Dispatcher recording =
      new Dispatcher() {
        @Override
        public Object methodEnter(int site) {
          seen.add("enter " + site);
          return block
              ? Blocked.method("r", "concurrency", "levee: r blocked the call (concurrency)", null)
              : new Permit(0, 0, 0, 7) {};
        }

        @Override
        public void methodExit(Object token, long startNanos, Throwable error) {
          seen.add("exit " + (error == null ? "ok" : error.getClass().getSimpleName()));
        }
      };

  @AfterEach
  void uninstall() {
    Levee.install(null);
  }

  @Test
  void staticAndInstanceMethodsRunUnchangedAndReportOnce() throws Throwable {
    Class<?> woven = woven();
    Levee.install(recording);
    assertThat(call(woven, null, "twice", 21)).isEqualTo(42);
    assertThat(call(woven, null, "join", 3L, 1.5d, "c", new int[2])).isEqualTo("3/1.5/c/2");
    assertThat(call(woven, null, "nothing")).isNull();
    Object target = woven.getConstructor().newInstance();
    assertThat(call(woven, target, "instance", 10L, 4)).isEqualTo(16L);
    assertThat(seen)
        .containsExactly(
            "enter 1", "exit ok", "enter 2", "exit ok", "enter 3", "exit ok", "enter 4", "exit ok");
  }

  @Test
  void anExceptionIsReportedAndThrownOn() throws Throwable {
    Class<?> woven = woven();
    Levee.install(recording);
    assertThatThrownBy(() -> call(woven, null, "join", 1L, 2d, null, new int[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no c");
    assertThat(seen).containsExactly("enter 2", "exit IllegalArgumentException");
  }

  @Test
  void aBlockedCallThrowsWithoutRunningTheMethod() throws Throwable {
    Class<?> woven = woven();
    Levee.install(recording);
    block = true;
    assertThatThrownBy(() -> call(woven, null, "twice", 1))
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessage("levee: r blocked the call (concurrency)");
    assertThat(seen).containsExactly("enter 1");
  }

  /** Statics woven with sites 1 to 4, defined in a loader of its own. */
  private static Class<?> woven() throws IOException {
    Map<String, Integer> sites = new HashMap<>();
    sites.put("twice(I)I", 1);
    sites.put("join(JDLjava/lang/String;[I)Ljava/lang/String;", 2);
    sites.put("nothing()V", 3);
    sites.put("instance(JI)J", 4);
    byte[] bytes;
    try (InputStream in =
        MethodAdviceTest.class.getClassLoader().getResourceAsStream(STATICS + ".class")) {
      bytes = in.readAllBytes();
    }
    byte[] woven = Weaver.weave(bytes, Collections.<TypeRule>emptyList(), sites);
    assertThat(woven).isNotNull();
    Class<?> type =
        new ClassLoader(MethodAdviceTest.class.getClassLoader()) {
          Class<?> define() {
            return defineClass("methodfixtures.Statics", woven, 0, woven.length);
          }
        }.define();
    assertThat(type).isNotEqualTo(Statics.class);
    return type;
  }

  private static Object call(Class<?> type, Object target, String name, Object... args)
      throws Throwable {
    for (Method m : type.getDeclaredMethods()) {
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
}
