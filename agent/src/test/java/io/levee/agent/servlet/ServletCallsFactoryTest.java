package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.RecordingDispatcher.Outcome;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.servlet.ServletCalls;
import io.levee.bootstrap.servlet.ServletHooks;
import io.levee.bootstrap.servlet.ServletSupport;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.servlet.ServletOutputStream;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import net.bytebuddy.ByteBuddy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which servlet calls a woven class gets, by what its loader sees of the servlet API: the jakarta
 * flavour made from the javax source, and the javax calls on servlet 2.5 (which no container in the
 * tests runs: Tomcat 9 and Jetty 12 are servlet 4 and 6) on requests made here. The calls of 3.0+
 * and jakarta run in the container tests.
 */
class ServletCallsFactoryTest {
  private final ServletCallsFactory factory = new ServletCallsFactory();
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
  void eachApiGetsItsCallsDefinedBesideTheApplicationsLoader() {
    ServletCalls javax = factory.create(ServletCallsFactoryTest.class, ServletHooks.JAVAX);
    ServletCalls jakarta = factory.create(ServletCallsFactoryTest.class, ServletHooks.JAKARTA);

    assertThat(javax.getClass().getName()).isEqualTo(JavaxServletCalls.class.getName());
    assertThat(jakarta.getClass().getName()).isEqualTo(ServletCallsFactory.JAKARTA);
    // Defined by a loader of its own whose parent is the application's, never the agent's copy.
    assertThat(javax.getClass()).isNotEqualTo(JavaxServletCalls.class);
    assertThat(javax.getClass().getClassLoader().getParent())
        .isSameAs(ServletCallsFactoryTest.class.getClassLoader());
    assertThat(factory.create(ServletCallsFactoryTest.class, ServletHooks.JAVAX)).isSameAs(javax);
  }

  @Test
  void theJakartaFlavourIsTheJavaxSourceOnTheJakartaApi() throws Exception {
    ServletCalls flavour = factory.create(ServletCallsFactoryTest.class, ServletHooks.JAKARTA);
    Object request =
        Proxy.newProxyInstance(
            ServletCallsFactoryTest.class.getClassLoader(),
            new Class<?>[] {jakarta.servlet.http.HttpServletRequest.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getDispatcherType" -> jakarta.servlet.DispatcherType.REQUEST;
                  case "getMethod" -> "POST";
                  case "getRequestURI" -> "/shop/cart";
                  case "getHeader" -> "t-7";
                  case "isAsyncStarted" -> false;
                  default -> null;
                });
    Object response =
        Proxy.newProxyInstance(
            ServletCallsFactoryTest.class.getClassLoader(),
            new Class<?>[] {jakarta.servlet.http.HttpServletResponse.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getStatus" -> 201;
                  case "isCommitted" -> false;
                  default -> null;
                });

    Object token = flavour.enter(request, response);
    flavour.exit(request, response, token, 5L, null);

    assertThat(dispatcher.decisions)
        .extracting(d -> d.first() + " " + d.second())
        .containsExactly("POST /shop/cart");
    assertThat(dispatcher.outcomes).extracting(Outcome::status).containsExactly(201);
    assertThat(flavour.header(request, "X-Tenant")).isEqualTo("t-7");
    // A javax request is not one of jakarta's: the jakarta calls leave it alone.
    Object javaxRequest = request(new HashMap<>());
    assertThat(flavour.enter(javaxRequest, response(false))).isNull();
    flavour.exit(javaxRequest, response(false), null, 5L, null);
  }

  @Test
  void aLoaderWithoutServlet30GetsCallsThatNeverTouchIt() {
    ServletCalls old = factory.create(siteWithoutAsync(), ServletHooks.JAVAX);
    assertThat(old.getClass().getName()).isEqualTo(JavaxServletCalls.class.getName());
    assertThat(old).isNotSameAs(factory.create(ServletCallsFactoryTest.class, ServletHooks.JAVAX));
  }

  @Test
  void the25CallsDecideTheOutermostDispatchOnceAndReportWhatTheyCanKnow() throws Exception {
    ServletCalls calls = factory.create(siteWithoutAsync(), ServletHooks.JAVAX);
    Map<String, Object> attributes = new HashMap<>();
    Object request = request(attributes);
    Object response = response(false);

    Object token = calls.enter(request, response);
    // A nested dispatch of the same request (a filter chain, a forward): no second decision.
    assertThat(calls.enter(request, response)).isNull();
    calls.exit(request, response, null, 0L, null);
    calls.exit(request, response, token, 5L, null);

    assertThat(dispatcher.decisions)
        .extracting(d -> d.first() + " " + d.second())
        .containsExactly("GET /app/x");
    assertThat(attributes).containsKey(ServletSupport.SEEN);
    assertThat(dispatcher.outcomes).extracting(Outcome::status).containsExactly(-1);

    // A throw on an uncommitted response is a 500.
    Object second = calls.enter(request(new HashMap<>()), response);
    calls.exit(request, response, second, 5L, new IllegalStateException("boom"));
    assertThat(dispatcher.outcomes).extracting(Outcome::status).containsExactly(-1, 500);
  }

  @Test
  void the25CallsAnswerARequestThatThrewAfterARefusedCallAndNothingElse() throws Exception {
    Blocked refused =
        new Blocked(
            "db",
            "rate-limit",
            "levee: db blocked the call (rate-limit)",
            0,
            4,
            "",
            "text/plain",
            new String[0],
            false,
            "53000");
    Levee.install(
        new Dispatcher() {
          @Override
          public Object servletEnter(String method, String path, Object request, Object keys) {
            return new Permit(0, 0, 0, 0, true) {};
          }

          @Override
          public Object jdbcEnter(String jdbcUrl, String sql) {
            return refused;
          }

          @Override
          public Blocked backpressure(Object permit, Blocked r) {
            return new Blocked(
                r.resource,
                r.reason,
                r.message,
                503,
                r.retryAfterSeconds,
                r.message + "\n",
                "text/plain; charset=utf-8",
                new String[0],
                false,
                null);
          }
        });
    ServletCalls calls = factory.create(siteWithoutAsync(), ServletHooks.JAVAX);
    Map<String, Object> answer = new HashMap<>();
    Object response = recording(answer);

    Object token = calls.enter(request(new HashMap<>()), response);
    Levee.jdbcEnter("jdbc:h2:mem:x", "select 1");
    boolean answered =
        calls.exit(request(new HashMap<>()), response, token, 5L, new IllegalStateException("x"));

    assertThat(answered).isTrue();
    assertThat(answer)
        .containsEntry("setStatus", 503)
        .containsEntry("Retry-After", "4")
        .containsEntry("body", "levee: db blocked the call (rate-limit)\n");

    // Without a throw, servlet 2.5 cannot tell a 5xx: the application's answer stands.
    Object quiet = calls.enter(request(new HashMap<>()), response);
    Levee.jdbcEnter("jdbc:h2:mem:x", "select 1");
    assertThat(calls.exit(request(new HashMap<>()), response, quiet, 5L, null)).isFalse();
  }

  /** A response that keeps what is written to it in {@code answer}. */
  private static Object recording(Map<String, Object> answer) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    ServletOutputStream out =
        new ServletOutputStream() {
          @Override
          public void write(int b) {
            body.write(b);
            answer.put("body", body.toString(StandardCharsets.UTF_8));
          }

          @Override
          public boolean isReady() {
            return true;
          }

          @Override
          public void setWriteListener(WriteListener listener) {}
        };
    return Proxy.newProxyInstance(
        ServletCallsFactoryTest.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) ->
            switch (method.getName()) {
              case "isCommitted" -> false;
              case "setStatus" -> answer.put("setStatus", args[0]);
              case "setHeader" -> answer.put((String) args[0], args[1]);
              case "getOutputStream" -> out;
              default -> null;
            });
  }

  /**
   * A class whose loader, like a servlet 2.5 container's, has none of the classes servlet 3.0
   * added, so calls defined beside it fail if they ever resolve one.
   */
  private static Class<?> siteWithoutAsync() {
    byte[] site =
        new ByteBuddy().subclass(Object.class).name("sample.OldServlet").make().getBytes();
    Set<String> servlet30 =
        Set.of(
            "javax.servlet.AsyncContext",
            "javax.servlet.AsyncListener",
            "javax.servlet.DispatcherType");
    return new ClassLoader(ServletCallsFactoryTest.class.getClassLoader()) {
      @Override
      public URL getResource(String name) {
        return name.equals("javax/servlet/AsyncContext.class") ? null : super.getResource(name);
      }

      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (servlet30.contains(name)) {
          throw new ClassNotFoundException(name + " (servlet 2.5)");
        }
        return super.loadClass(name, resolve);
      }

      Class<?> define() {
        return defineClass("sample.OldServlet", site, 0, site.length);
      }
    }.define();
  }

  private static Object request(Map<String, Object> attributes) {
    return Proxy.newProxyInstance(
        ServletCallsFactoryTest.class.getClassLoader(),
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
        ServletCallsFactoryTest.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> method.getName().equals("isCommitted") ? committed : null);
  }
}
