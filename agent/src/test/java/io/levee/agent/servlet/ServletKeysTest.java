package io.levee.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.KeySpec;
import java.lang.reflect.Proxy;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

/** Keys of per-key rate limits, read through the servlet calls from a request of the real API. */
class ServletKeysTest {
  private final ServletKeys keys = new ServletKeys(new JavaxServletCalls(true));
  private final Object request = request(Map.of("X-Tenant-ID", "t-42"));

  /**
   * A request of the servlet API whose {@code getParameter} (which would read a form body) fails.
   */
  private static Object request(Map<String, String> headers) {
    return request(headers, "page=2&tenant=acme&x");
  }

  private static Object request(Map<String, String> headers, String query) {
    return Proxy.newProxyInstance(
        ServletKeysTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) ->
            switch (method.getName()) {
              case "getHeader" -> headers.get((String) args[0]);
              case "getQueryString" -> query;
              case "getRemoteAddr" -> "10.0.0.7";
              default -> throw new AssertionError(method.getName() + " called");
            });
  }

  @Test
  void readsHeaderParameterAndClientAddress() {
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID")))
        .isEqualTo("t-42");
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.PARAM, "tenant"))).isEqualTo("acme");
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.IP, null))).isEqualTo("10.0.0.7");
  }

  @Test
  void readsAParameterFromTheQueryStringOnlyDecodingIt() {
    assertThat(ServletKeys.queryParameter("tenant=caf%C3%A9+bar", "tenant")).isEqualTo("café bar");
    assertThat(ServletKeys.queryParameter("tenants=a&tenant=b&tenant=c", "tenant")).isEqualTo("b");
    assertThat(ServletKeys.queryParameter("x&tenant", "tenant")).isEmpty();
    assertThat(ServletKeys.queryParameter("other=1", "tenant")).isNull();
    assertThat(ServletKeys.queryParameter(null, "tenant")).isNull();
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.PARAM, "x"))).isEmpty();
  }

  @Test
  void missingValueOrRequestWithoutTheMethodGivesNoKey() {
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.HEADER, "X-Other"))).isNull();
    assertThat(keys.key(new Object(), new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID"))).isNull();
    assertThat(keys.key(null, new KeySpec(KeySpec.Source.IP, null))).isNull();
  }

  @Test
  void readsAClaimOfTheBearerToken() {
    String token = JwtClaimsTest.token("{\"sub\":\"u-1\",\"tenant\":\"premium-7\"}");
    Object withToken = request(Map.of("Authorization", "Bearer " + token));

    assertThat(keys.key(withToken, new KeySpec(KeySpec.Source.JWT, "tenant")))
        .isEqualTo("premium-7");
    assertThat(keys.key(withToken, new KeySpec(KeySpec.Source.JWT, "sub"))).isEqualTo("u-1");
  }

  @Test
  void aRequestWithoutAReadableClaimHasTheKeyNone() {
    KeySpec tenant = new KeySpec(KeySpec.Source.JWT, "tenant");
    assertThat(keys.key(request, tenant)).isEqualTo(KeySpec.NONE);
    assertThat(keys.key(request(Map.of("Authorization", "Bearer a.!!!.c")), tenant))
        .isEqualTo(KeySpec.NONE);
    assertThat(keys.key(request(Map.of("Authorization", "Basic dXNlcjpwdw==")), tenant))
        .isEqualTo(KeySpec.NONE);
    String noClaim = JwtClaimsTest.token("{\"sub\":\"u-1\"}");
    assertThat(keys.key(request(Map.of("Authorization", "Bearer " + noClaim)), tenant))
        .isEqualTo(KeySpec.NONE);
    assertThat(keys.key(new Object(), tenant)).isEqualTo(KeySpec.NONE);
  }

  @Test
  void anEmptyOrOverLongClaimIsTheKeyNone() {
    assertThat(ServletKeys.claim(bearer("\"\""), "tenant")).isEqualTo(KeySpec.NONE);
    String longest = "t".repeat(ServletKeys.MAX_KEY);
    assertThat(ServletKeys.claim(bearer("\"" + longest + "\""), "tenant")).isEqualTo(longest);
    assertThat(ServletKeys.claim(bearer("\"" + longest + "t\""), "tenant")).isEqualTo(KeySpec.NONE);
    assertThat(ServletKeys.claim(bearer("1" + "0".repeat(ServletKeys.MAX_KEY)), "tenant"))
        .isEqualTo(KeySpec.NONE);
  }

  private static String bearer(String tenant) {
    return "Bearer " + JwtClaimsTest.token("{\"tenant\":" + tenant + "}");
  }

  @Test
  void anOverLongHeaderOrParameterIsNoKey() {
    String longest = "h".repeat(ServletKeys.MAX_KEY);
    KeySpec header = new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID");
    assertThat(keys.key(request(Map.of("X-Tenant-ID", longest)), header)).isEqualTo(longest);
    assertThat(keys.key(request(Map.of("X-Tenant-ID", longest + "h")), header)).isNull();
    Object query = request(Map.of(), "tenant=" + "p".repeat(ServletKeys.MAX_KEY + 1));
    assertThat(keys.key(query, new KeySpec(KeySpec.Source.PARAM, "tenant"))).isNull();
  }

  @Test
  void aRequestThatThrowsGivesNoKeyAndStaysInTheSharedBucket() {
    Object broken =
        Proxy.newProxyInstance(
            ServletKeysTest.class.getClassLoader(),
            new Class<?>[] {HttpServletRequest.class},
            (proxy, method, args) -> {
              throw new IllegalStateException("request recycled");
            });

    assertThat(keys.key(broken, new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID"))).isNull();
    assertThat(keys.key(broken, new KeySpec(KeySpec.Source.IP, null))).isNull();
    assertThat(keys.key(broken, new KeySpec(KeySpec.Source.PARAM, "tenant"))).isNull();
    assertThat(keys.key(broken, new KeySpec(KeySpec.Source.JWT, "tenant"))).isEqualTo(KeySpec.NONE);
  }
}
