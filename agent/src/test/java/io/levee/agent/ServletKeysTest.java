package io.levee.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.KeySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServletKeysTest {
  /** Stands in for the servlet API, which the agent only reaches by reflection. */
  public interface Request {
    String getHeader(String name);

    String getParameter(String name);

    String getQueryString();

    String getRemoteAddr();
  }

  /** Not public, like many containers' request classes: its methods must be called through the interface. */
  private static final class ContainerRequest implements Request {
    private final Map<String, String> headers;

    ContainerRequest(Map<String, String> headers) {
      this.headers = headers;
    }

    @Override
    public String getHeader(String name) {
      return headers.get(name);
    }

    /** Would read a form body and fix the encoding: the agent must never call it. */
    @Override
    public String getParameter(String name) {
      throw new AssertionError("getParameter called");
    }

    @Override
    public String getQueryString() {
      return "page=2&tenant=acme&x";
    }

    @Override
    public String getRemoteAddr() {
      return "10.0.0.7";
    }
  }

  private final ServletKeys keys = new ServletKeys();
  private final Object request = new ContainerRequest(Map.of("X-Tenant-ID", "t-42"));

  @Test
  void readsHeaderParameterAndClientAddress() {
    assertThat(keys.key(request, new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID"))).isEqualTo("t-42");
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
}
