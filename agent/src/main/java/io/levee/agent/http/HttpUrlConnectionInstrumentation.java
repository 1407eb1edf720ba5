package io.levee.agent.http;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperClass;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.AdviceSupport;
import io.levee.agent.instrument.Integration;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * {@code kind: http}: the JDK's {@code HttpURLConnection} implementation
 * ({@code sun.net.www.protocol.http.HttpURLConnection}) and its JDK subclasses, which include the
 * delegate behind every https connection. The logic lives in {@code io.levee.bootstrap.http.HttpCalls},
 * because advice inlined into java.base can only call the boot loader.
 *
 * <p>{@code sun.net.www.protocol.https.HttpsURLConnectionImpl} is not matched (it does not extend the
 * implementation class): it only delegates to a {@code DelegateHttpsURLConnection}, which is, and it
 * never updates its own {@code connected} or {@code responseCode}, so deciding on it would count every
 * https call twice. {@code java.net.HttpURLConnection.getResponseCode} is not instrumented either: it
 * calls {@code getInputStream} and {@code getHeaderField(0)}, which are.
 */
public final class HttpUrlConnectionInstrumentation implements Integration {
  static final String IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";

  /** The name prefix keeps the superclass walk off every other class the JVM loads. */
  static final ElementMatcher.Junction<TypeDescription> TYPES =
      nameStartsWith("sun.net.www.protocol.").and(hasSuperClass(named(IMPLEMENTATION)));

  @Override
  public String name() {
    return "http";
  }

  @Override
  public void addTo(Transformations transformations) {
    transformations
        .add(
            AdviceSupport.failSafe(TYPES),
            AdviceSupport.advice(HttpUrlConnectionInstrumentation.class)
                .advice(
                    isPublic().and(named("connect")).and(takesArguments(0)),
                    EnterAdvice.Decide.class.getName(),
                    ConnectAdvice.class.getName())
                .advice(
                    isPublic().and(named("getOutputStream")).and(takesArguments(0)),
                    EnterAdvice.Decide.class.getName(),
                    OutputStreamAdvice.class.getName())
                .advice(
                    isPublic().and(named("getInputStream")).and(takesArguments(0)),
                    EnterAdvice.Decide.class.getName(),
                    InputStreamAdvice.class.getName())
                .advice(
                    isPublic().and(named("getHeaderField")).and(takesArguments(String.class)),
                    EnterAdvice.Fallback.class.getName(),
                    HeaderAdvice.ByName.class.getName())
                .advice(
                    isPublic().and(named("getHeaderField")).and(takesArguments(int.class)),
                    EnterAdvice.Fallback.class.getName(),
                    HeaderAdvice.ByIndex.class.getName())
                .advice(
                    isPublic().and(named("getHeaderFieldKey")).and(takesArguments(int.class)),
                    EnterAdvice.Fallback.class.getName(),
                    HeaderAdvice.KeyByIndex.class.getName())
                .advice(
                    isPublic().and(named("getHeaderFields")).and(takesArguments(0)),
                    EnterAdvice.Fallback.class.getName(),
                    HeaderAdvice.All.class.getName())
                .advice(
                    isPublic().and(named("getErrorStream")).and(takesArguments(0)),
                    HeaderAdvice.ErrorStream.class.getName())
                .advice(
                    isPublic().and(named("disconnect")).and(takesArguments(0)),
                    DisconnectAdvice.class.getName()));
  }
}
