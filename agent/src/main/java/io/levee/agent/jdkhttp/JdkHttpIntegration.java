package io.levee.agent.jdkhttp;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.LoaderCalls;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.jdkhttp.JdkHttpCalls;
import io.levee.bootstrap.jdkhttp.JdkHttpHooks;

/**
 * {@code kind: http} for the JDK's {@code java.net.http.HttpClient} (Java 11 and later): {@code
 * send}, {@code sendAsync} with and without a push promise handler all end in the private {@code
 * sendAsync(HttpRequest, BodyHandler, PushPromiseHandler, Executor)} of {@code
 * jdk.internal.net.http.HttpClientImpl} (the same on JDK 11 to 25; {@code HttpClientFacade} only
 * delegates to it), which decides; {@code send} itself is not woven, or a call would be decided
 * twice. The client's {@code connectTimeout()} and the application's request's {@code timeout()}
 * ({@code ImmutableHttpRequest}, what {@code HttpRequest.newBuilder()} builds) answer the permit's
 * timeouts where they are unset, while a decided call is set up ({@link JdkHttpHooks}).
 *
 * <p>The logic that needs the client's types is {@code JdkClientCalls}, compiled for Java 11 into
 * the same jar and defined beside {@code java.net.http} at the first call ({@link LoaderCalls}):
 * this class and everything else the agent loads stay Java 8 and never name it. On Java 8 none of
 * these classes exists, so nothing is woven.
 */
public final class JdkHttpIntegration implements Integration {
  static final String CLIENT = "jdk.internal.net.http.HttpClientImpl";
  static final String REQUEST = "jdk.internal.net.http.ImmutableHttpRequest";
  private static final String CALLS = "io.levee.agent.jdkhttp.JdkClientCalls";

  private static final String SEND_ASYNC =
      "(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;"
          + "Ljava/net/http/HttpResponse$PushPromiseHandler;Ljava/util/concurrent/Executor;)";

  @Override
  public String name() {
    return "jdkhttp";
  }

  @Override
  public void addTo(Transformations transformations) {
    JdkHttpHooks.install(new LoaderCalls<JdkHttpCalls>(JdkHttpCalls.class, CALLS));
    Advice hooks = Advice.in("io.levee.bootstrap.jdkhttp.JdkHttpHooks");
    transformations
        .add(
            TypeRule.implementing(CLIENT)
                .methods(
                    MethodRule.named("sendAsync")
                        .taking(SEND_ASYNC)
                        .weave(
                            hooks
                                .enter("enter", site(), arg(0))
                                .timed()
                                .skip(Advice.Skip.IF_BLOCKED)
                                .exit("exit", "thrown", site(), arg(0), arg(1))),
                    MethodRule.named("connectTimeout")
                        .taking("()Ljava/util/Optional;")
                        .publicOnly()
                        .weave(hooks.exit("connectTimeout", null))))
        .add(
            TypeRule.implementing(REQUEST)
                .methods(
                    MethodRule.named("timeout")
                        .taking("()Ljava/util/Optional;")
                        .publicOnly()
                        .weave(hooks.exit("requestTimeout", null))));
  }
}
