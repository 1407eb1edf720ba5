package io.levee.agent.okhttp;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.LoaderCalls;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.okhttp.OkHttpCalls;
import io.levee.bootstrap.okhttp.OkHttpHooks;

/**
 * {@code kind: http} for OkHttp 3.14 to 5.x ({@code Call.execute} and {@code Call.enqueue}): one
 * decision per call in {@code RetryAndFollowUpInterceptor.intercept}, the first of OkHttp's own
 * interceptors, which has one name and descriptor in all three lines. It runs once per call after
 * the application's interceptors (so the URL is the one contacted), on the thread that runs the
 * call, before any connection is looked for, and OkHttp's own retries and redirects loop inside it.
 * What a blocked call throws or a fallback returns goes back through the application's interceptors
 * and OkHttp's bookkeeping (event listener, call timeout, dispatcher) like a real answer. The logic
 * is {@link OkHttpChainCalls}, defined beside each copy of OkHttp.
 *
 * <p>{@code RealCall.getResponseWithInterceptorChain} is not woven: skipping it would skip its
 * {@code finally}, which ends the call's timeout and event listener.
 */
public final class OkHttpIntegration implements Integration {
  static final String INTERCEPTOR = "okhttp3.internal.http.RetryAndFollowUpInterceptor";

  /** By name: the agent's own loader, where OkHttp is absent, never loads it. */
  private static final String CALLS = "io.levee.agent.okhttp.OkHttpChainCalls";

  @Override
  public String name() {
    return "okhttp";
  }

  @Override
  public void addTo(Transformations transformations) {
    OkHttpHooks.install(new LoaderCalls<OkHttpCalls>(OkHttpCalls.class, CALLS));
    Advice advice =
        Advice.in("io.levee.bootstrap.okhttp.OkHttpHooks")
            .enter("enter", site(), arg(0))
            .timed()
            .skip(Advice.Skip.IF_BLOCKED)
            .exit("exit", "thrown", site(), arg(0));
    transformations.add(
        TypeRule.implementing(INTERCEPTOR)
            .within(INTERCEPTOR)
            .methods(
                MethodRule.named("intercept")
                    .taking("(Lokhttp3/Interceptor$Chain;)Lokhttp3/Response;")
                    .publicOnly()
                    .weave(advice)));
  }
}
