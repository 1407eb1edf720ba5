package io.levee.agent.http;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.intArg;
import static io.levee.agent.instrument.Advice.Pass.intField;
import static io.levee.agent.instrument.Advice.Pass.self;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;

/**
 * {@code kind: http}: the JDK's {@code HttpURLConnection} implementation ({@code
 * sun.net.www.protocol.http.HttpURLConnection}) and its JDK subclasses, which include the delegate
 * behind every https connection. The logic lives in {@code io.levee.bootstrap.http.HttpCalls},
 * because code woven into java.base can only call the boot loader.
 *
 * <p>{@code sun.net.www.protocol.https.HttpsURLConnectionImpl} is not matched (it does not extend
 * the implementation class): it only delegates to a {@code DelegateHttpsURLConnection}, which is,
 * and it never updates its own {@code connected} or {@code responseCode}, so deciding on it would
 * count every https call twice. {@code java.net.HttpURLConnection.getResponseCode} is not woven
 * either: it calls {@code getInputStream} and {@code getHeaderField(0)}, which are.
 */
public final class HttpUrlConnectionIntegration implements Integration {
  static final String IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";

  private static final String CONNECTION = "java.net.HttpURLConnection";

  @Override
  public String name() {
    return "http";
  }

  @Override
  public void addTo(Transformations transformations) {
    Advice hooks = Advice.in("io.levee.bootstrap.http.HttpHooks");
    // connect, getOutputStream, getInputStream: the first one decides; a blocked one is skipped
    // and its exit throws (or, for a fallback, returns the fallback's streams).
    Advice decide = hooks.enter("decide", self(CONNECTION)).skip(Advice.Skip.IF_NON_NULL);
    // The response-reading methods: a fallback answers them itself, skipping the original.
    Advice fallback = hooks.enter("fallback", self(CONNECTION)).skip(Advice.Skip.IF_NON_NULL);
    Advice.Pass[] connection = {self(CONNECTION), intField("responseCode")};
    transformations.add(
        TypeRule.implementing(IMPLEMENTATION)
            .within("sun.net.www.protocol.")
            .methods(
                method("connect", "()V").weave(decide.exit("connected", "failed", connection)),
                method("getOutputStream", "()")
                    .weave(decide.exit("outputStream", "failed", connection)),
                method("getInputStream", "()")
                    .weave(decide.exit("inputStream", "readFailed", connection)),
                method("getHeaderField", "(Ljava/lang/String;)")
                    .weave(fallback.exit("headerField", null, arg(0))),
                method("getHeaderField", "(I)")
                    .weave(fallback.exit("headerField", null, intArg(0))),
                method("getHeaderFieldKey", "(I)")
                    .weave(fallback.exit("headerFieldKey", null, intArg(0))),
                method("getHeaderFields", "()").weave(fallback.exit("headerFields", null)),
                // getErrorStream never connects, so it never decides either.
                method("getErrorStream", "()")
                    .weave(
                        hooks
                            .enter("decidedFallback", self(CONNECTION))
                            .skip(Advice.Skip.IF_NON_NULL)
                            .exit("errorStream", null)),
                // A connection the application gives up before its response releases its permit.
                method("disconnect", "()V")
                    .weave(hooks.enter("disconnect", self(CONNECTION), intField("responseCode")))));
  }

  private static MethodRule method(String name, String parameters) {
    return MethodRule.named(name).taking(parameters).publicOnly();
  }
}
