package io.levee.agent.apache5async;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.self;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.LoaderCalls;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.apache5async.ApacheAsyncCalls;
import io.levee.bootstrap.apache5async.ApacheAsyncHooks;

/**
 * {@code kind: http} for Apache HttpClient 5's async client ({@code CloseableHttpAsyncClient}): one
 * decision in {@code doExecute}, which every public {@code execute} (all {@code final}) calls, the
 * outcome when the future it returns completes. The woven points, all in httpclient5 and httpcore5:
 *
 * <ul>
 *   <li>{@code doExecute} of the client classes (the internal and the minimal client's bases):
 *       decides, and for a blocked call returns a future of its own without running;
 *   <li>{@code BasicFuture.completed/failed/cancel}, where the returned future ({@code
 *       ComplexFuture}, which calls them) ends: the outcome, before the waiters and the callback;
 *   <li>{@code consumeResponse} of every {@code AsyncResponseConsumer}: the response status, for
 *       consumers whose result carries none, and whether the client decoded its body;
 *   <li>{@code HttpClientContext.setExchangeId} and {@code AsyncConnectionEndpoint.execute}: which
 *       connection runs the exchange, to give it the read timeout.
 * </ul>
 *
 * Shaded copies of the client keep their own package names and are not matched.
 */
public final class ApacheAsyncIntegration implements Integration {
  static final String CLIENT = "org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient";
  static final String FUTURE = "org.apache.hc.core5.concurrent.BasicFuture";
  static final String CONSUMER = "org.apache.hc.core5.http.nio.AsyncResponseConsumer";
  static final String CONTEXT = "org.apache.hc.client5.http.protocol.HttpClientContext";
  static final String ENDPOINT = "org.apache.hc.client5.http.nio.AsyncConnectionEndpoint";

  private static final String CALLS = "io.levee.agent.apache5async.ApacheAsyncClientCalls";
  private static final String OBJECT = "java.lang.Object";

  private static final String CORE = "Lorg/apache/hc/core5/";

  @Override
  public String name() {
    return "apache5-async";
  }

  @Override
  public void addTo(Transformations transformations) {
    ApacheAsyncHooks.calls()
        .install(new LoaderCalls<ApacheAsyncCalls>(ApacheAsyncCalls.class, CALLS));
    Advice hooks = Advice.in("io.levee.bootstrap.apache5async.ApacheAsyncHooks");
    Advice.Pass[] future = {self(OBJECT)};
    transformations
        .add(
            TypeRule.implementing(CLIENT)
                .methods(
                    MethodRule.named("doExecute")
                        .taking(
                            "("
                                + CORE
                                + "http/HttpHost;"
                                + CORE
                                + "http/nio/AsyncRequestProducer;"
                                + CORE
                                + "http/nio/AsyncResponseConsumer;"
                                + CORE
                                + "http/nio/HandlerFactory;"
                                + CORE
                                + "http/protocol/HttpContext;"
                                + CORE
                                + "concurrent/FutureCallback;)")
                        .weave(
                            hooks
                                .enter("execute", site(), arg(0), arg(1), arg(2))
                                .skip(Advice.Skip.IF_BLOCKED)
                                .exit(
                                    "executed",
                                    "executeFailed",
                                    site(),
                                    arg(1),
                                    arg(2),
                                    arg(4),
                                    arg(5)))))
        // BasicFuture itself: ComplexFuture and the rest call its methods through super.
        .add(
            TypeRule.implementing(FUTURE)
                .within(FUTURE)
                .methods(
                    future("completed", "(Ljava/lang/Object;)")
                        .weave(
                            hooks
                                .enter("completing", self(OBJECT), arg(0))
                                .exit("settled", "settleFailed", future)),
                    future("failed", "(Ljava/lang/Exception;)")
                        .weave(
                            hooks
                                .enter("failing", self(OBJECT), arg(0))
                                .exit("settled", "settleFailed", future)),
                    future("cancel", "(Z)")
                        .weave(
                            hooks
                                .enter("cancelling", self(OBJECT))
                                .exit("settled", "settleFailed", future))))
        .add(
            TypeRule.implementing(CONSUMER)
                .methods(
                    MethodRule.named("consumeResponse")
                        .taking("(" + CORE + "http/HttpResponse;" + CORE + "http/EntityDetails;")
                        .weave(hooks.enter("response", self(OBJECT), arg(0), arg(1)))))
        .add(
            TypeRule.implementing(CONTEXT)
                .within(CONTEXT)
                .methods(
                    MethodRule.named("setExchangeId")
                        .taking("(Ljava/lang/String;)V")
                        .weave(hooks.enter("exchange", self(OBJECT)))))
        .add(
            TypeRule.implementing(ENDPOINT)
                .methods(
                    MethodRule.named("execute")
                        .taking(
                            "(Ljava/lang/String;"
                                + CORE
                                + "http/nio/AsyncClientExchangeHandler;"
                                + CORE
                                + "http/nio/HandlerFactory;"
                                + CORE
                                + "http/protocol/HttpContext;)V")
                        .weave(hooks.enter("executing", self(OBJECT), arg(3)))));
  }

  private static MethodRule future(String name, String parameters) {
    return MethodRule.named(name).taking(parameters).publicOnly();
  }
}
