package io.levee.agent.apache5;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.LoaderCalls;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.apache5.Apache5Hooks;
import io.levee.bootstrap.http.BlockingClientCalls;

/**
 * {@code kind: http} for the classic (blocking) Apache HttpClient 5 ({@code
 * org.apache.httpcomponents.client5:httpclient5}): {@code doExecute(HttpHost, ClassicHttpRequest,
 * HttpContext)} of every concrete classic {@code CloseableHttpClient} ({@code InternalHttpClient},
 * {@code MinimalHttpClient}, an application's own subclass), which every {@code execute} form
 * reaches, the {@code HttpClientResponseHandler} ones and {@code executeOpen} (Spring 6's
 * RestTemplate) included; and the exits of {@code HttpClientContext.getRequestConfigOrDefault()}
 * and {@code getRequestConfig()}, which the exec runtime reads the connect and response timeouts
 * from, on the caller's thread. The logic that needs the client's types is {@link
 * Apache5ClientCalls}, defined beside each loader's copy of the client. The async client is another
 * integration.
 *
 * <p>Not woven: copies of the client relocated by a library: rules match exact class names.
 */
public final class Apache5Integration implements Integration {
  static final String CLIENT = "org.apache.hc.client5.http.impl.classic.CloseableHttpClient";
  static final String CONTEXT = "org.apache.hc.client5.http.protocol.HttpClientContext";
  private static final String CALLS = "io.levee.agent.apache5.Apache5ClientCalls";

  @Override
  public String name() {
    return "apache5";
  }

  @Override
  public void addTo(Transformations transformations) {
    Apache5Hooks.CALLS.install(
        new LoaderCalls<BlockingClientCalls>(BlockingClientCalls.class, CALLS));
    Advice hooks = Advice.in("io.levee.bootstrap.apache5.Apache5Hooks");
    transformations
        .add(
            TypeRule.implementing(CLIENT)
                .methods(
                    MethodRule.named("doExecute")
                        .taking(
                            "(Lorg/apache/hc/core5/http/HttpHost;"
                                + "Lorg/apache/hc/core5/http/ClassicHttpRequest;"
                                + "Lorg/apache/hc/core5/http/protocol/HttpContext;)")
                        .weave(
                            hooks
                                .enter("enter", site(), arg(0), arg(1))
                                .timed()
                                .skip(Advice.Skip.IF_BLOCKED)
                                .exit("exit", "thrown", site(), arg(0), arg(1)))))
        .add(
            TypeRule.implementing(CONTEXT)
                .methods(
                    // 5.4 and later read getRequestConfigOrDefault(), which calls
                    // getRequestConfig() (null when unset); before 5.4, getRequestConfig() alone,
                    // with the defaults filled in. Both are woven: a configuration that already
                    // has the rule's timeouts is given back as it is.
                    MethodRule.named("getRequestConfigOrDefault", "getRequestConfig")
                        .taking("()Lorg/apache/hc/client5/http/config/RequestConfig;")
                        .publicOnly()
                        .weave(hooks.exit("requestConfig", null, site()))));
  }
}
