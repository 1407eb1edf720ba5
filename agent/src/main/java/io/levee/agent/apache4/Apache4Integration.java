package io.levee.agent.apache4;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.LoaderCalls;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.apache4.Apache4Hooks;
import io.levee.bootstrap.http.BlockingClientCalls;

/**
 * {@code kind: http} for Apache HttpClient 4.3 to 4.5 ({@code
 * org.apache.httpcomponents:httpclient}): {@code doExecute(HttpHost, HttpRequest, HttpContext)} of
 * every concrete {@code CloseableHttpClient} ({@code InternalHttpClient}, {@code
 * MinimalHttpClient}, the deprecated {@code AbstractHttpClient} family, an application's own
 * subclass), which all twelve public {@code execute} forms reach, the four {@code ResponseHandler}
 * ones included; and the exit of {@code HttpClientContext.getRequestConfig()}, which the exec chain
 * reads the timeouts from, on the caller's thread. The logic that needs the client's types is
 * {@link Apache4ClientCalls}, defined beside each loader's copy of the client.
 *
 * <p>Not woven: copies of the client relocated by a library ({@code
 * org.testcontainers.shaded.org.apache.http} and the like): rules match exact class names, and a
 * library's private client is not the application's partner. The deprecated wrappers that only
 * implement {@code HttpClient} ({@code AutoRetryHttpClient}, {@code DecompressingHttpClient}) are
 * not either: the client they wrap decides, once per try.
 */
public final class Apache4Integration implements Integration {
  static final String CLIENT = "org.apache.http.impl.client.CloseableHttpClient";
  static final String CONTEXT = "org.apache.http.client.protocol.HttpClientContext";
  private static final String CALLS = "io.levee.agent.apache4.Apache4ClientCalls";

  @Override
  public String name() {
    return "apache4";
  }

  @Override
  public void addTo(Transformations transformations) {
    Apache4Hooks.CALLS.install(
        new LoaderCalls<BlockingClientCalls>(BlockingClientCalls.class, CALLS));
    Advice hooks = Advice.in("io.levee.bootstrap.apache4.Apache4Hooks");
    transformations
        .add(
            TypeRule.implementing(CLIENT)
                .methods(
                    MethodRule.named("doExecute")
                        .taking(
                            "(Lorg/apache/http/HttpHost;Lorg/apache/http/HttpRequest;"
                                + "Lorg/apache/http/protocol/HttpContext;)")
                        .weave(
                            hooks
                                .enter("enter", site(), arg(0), arg(1))
                                .timed()
                                .skip(Advice.Skip.IF_BLOCKED)
                                .exit("exit", "thrown", site(), arg(0), arg(1)))))
        .add(
            TypeRule.implementing(CONTEXT)
                .methods(
                    MethodRule.named("getRequestConfig")
                        .taking("()Lorg/apache/http/client/config/RequestConfig;")
                        .publicOnly()
                        .weave(hooks.exit("requestConfig", null, site()))));
  }
}
