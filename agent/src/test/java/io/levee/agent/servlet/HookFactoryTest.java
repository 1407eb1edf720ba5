package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testsupport.RecordingDispatcher;
import io.levee.agent.testsupport.RecordingDispatcher.Outcome;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.ServletHook;
import io.levee.bootstrap.ServletHooks;
import io.levee.bootstrap.ServletSupport;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import net.bytebuddy.ByteBuddy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which hook a woven class gets, by what its loader sees of the servlet API, and the javax 2.5 hook
 * (which no container in the tests runs: Tomcat 9 and Jetty 12 are servlet 4 and 6) on requests made
 * here. The 3.0+ and jakarta hooks run in the container tests.
 */
class HookFactoryTest {
  private final HookFactory factory = new HookFactory();
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();

  @BeforeEach
  void install() {
    Levee.install(dispatcher);
  }

  @AfterEach
  void uninstall() {
    Levee.install(null);
  }

  @Test
  void eachApiGetsItsHookDefinedBesideTheApplicationsLoader() {
    ServletHook javax = factory.create(HookFactoryTest.class, ServletHooks.JAVAX);
    ServletHook jakarta = factory.create(HookFactoryTest.class, ServletHooks.JAKARTA);

    assertThat(javax.getClass().getName()).isEqualTo(JavaxServletHook.class.getName());
    assertThat(jakarta.getClass().getName()).isEqualTo(JakartaServletHook.class.getName());
    // Defined by a loader of its own whose parent is the application's, never the agent's copy.
    assertThat(javax.getClass()).isNotEqualTo(JavaxServletHook.class);
    assertThat(javax.getClass().getClassLoader().getParent()).isSameAs(HookFactoryTest.class.getClassLoader());
    assertThat(factory.create(HookFactoryTest.class, ServletHooks.JAVAX)).isSameAs(javax);
  }

  @Test
  void aLoaderWithoutServlet30GetsThe25Hook() {
    assertThat(factory.create(siteWithoutAsync(), ServletHooks.JAVAX).getClass().getName())
        .isEqualTo(Javax25ServletHook.class.getName());
  }

  @Test
  void the25HookDecidesTheOutermostDispatchOnceAndReportsWhatItCanKnow() throws Exception {
    ServletHook hook = factory.create(siteWithoutAsync(), ServletHooks.JAVAX);
    Map<String, Object> attributes = new HashMap<>();
    Object request = request(attributes);
    Object response = response(false);

    Object token = hook.enter(request, response);
    // A nested dispatch of the same request (a filter chain, a forward): no second decision.
    assertThat(hook.enter(request, response)).isNull();
    hook.exit(request, response, null, 0L, null);
    hook.exit(request, response, token, 5L, null);

    assertThat(dispatcher.decisions).extracting(d -> d.first() + " " + d.second()).containsExactly("GET /app/x");
    assertThat(attributes).containsKey(ServletSupport.SEEN);
    assertThat(dispatcher.outcomes).extracting(Outcome::status).containsExactly(-1);

    // A throw on an uncommitted response is a 500.
    Object second = hook.enter(request(new HashMap<>()), response);
    hook.exit(request, response, second, 5L, new IllegalStateException("boom"));
    assertThat(dispatcher.outcomes).extracting(Outcome::status).containsExactly(-1, 500);
  }

  /** A class whose loader, like a servlet 2.5 container's, has no {@code AsyncContext}. */
  private static Class<?> siteWithoutAsync() {
    byte[] site = new ByteBuddy().subclass(Object.class).name("sample.OldServlet").make().getBytes();
    return new ClassLoader(HookFactoryTest.class.getClassLoader()) {
      @Override
      public URL getResource(String name) {
        return name.equals("javax/servlet/AsyncContext.class") ? null : super.getResource(name);
      }

      Class<?> define() {
        return defineClass("sample.OldServlet", site, 0, site.length);
      }
    }.define();
  }

  private static Object request(Map<String, Object> attributes) {
    return Proxy.newProxyInstance(
        HookFactoryTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) ->
            switch (method.getName()) {
              case "getAttribute" -> attributes.get((String) args[0]);
              case "setAttribute" -> attributes.put((String) args[0], args[1]);
              case "getMethod" -> "GET";
              case "getRequestURI" -> "/app/x";
              case "getContextPath" -> "/app";
              case "getServletPath" -> "/x";
              default -> null;
            });
  }

  private static Object response(boolean committed) {
    return Proxy.newProxyInstance(
        HookFactoryTest.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> method.getName().equals("isCommitted") ? committed : null);
  }
}
