package io.levee.agent.servlet;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.levee.agent.instrument.AdviceSupport;
import io.levee.agent.instrument.Implementing;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Transformations;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Inbound requests (SPEC §2 {@code servlet}): {@code Servlet.service} and {@code Filter.doFilter}
 * implementations of javax.servlet (2.5 to 4) and jakarta.servlet (5 and 6). One decision per
 * request, at the outermost dispatch of type {@code REQUEST}; the advice variants differ only in
 * the API they call.
 */
public final class ServletIntegration implements Integration {
  @Override
  public String name() {
    return "servlet";
  }

  @Override
  public void addTo(Transformations transformations) {
    transformations
        .add(
            servletOrFilter("javax.servlet"),
            new ByApiLevel(
                "javax/servlet/AsyncContext.class",
                advice("javax.servlet", JavaxServletAdvice.class),
                advice("javax.servlet", Javax25ServletAdvice.class)))
        .add(servletOrFilter("jakarta.servlet"), advice("jakarta.servlet", JakartaServletAdvice.class));
  }

  private static AgentBuilder.RawMatcher servletOrFilter(String api) {
    return Implementing.anyOf(api + ".Servlet", api + ".Filter");
  }

  /**
   * {@code service(ServletRequest, ServletResponse)} and {@code doFilter(ServletRequest,
   * ServletResponse, FilterChain)}.
   */
  private static ElementMatcher.Junction<MethodDescription> entryPoints(String api) {
    ElementMatcher.Junction<MethodDescription> requestAndResponse =
        takesArgument(0, named(api + ".ServletRequest"))
            .and(takesArgument(1, named(api + ".ServletResponse")));
    return not(isAbstract())
        .and(requestAndResponse)
        .and(
            named("service")
                .and(takesArguments(2))
                .or(
                    named("doFilter")
                        .and(takesArguments(3))
                        .and(takesArgument(2, named(api + ".FilterChain")))));
  }

  /** Advice read as class files from the agent's loader: the agent never loads the servlet API. */
  private static AgentBuilder.Transformer advice(String api, Class<?> adviceClass) {
    return AdviceSupport.advice(ServletIntegration.class)
        .advice(entryPoints(api), adviceClass.getName());
  }

  /**
   * Picks the advice by what the class's own loader can see of the API (servlet 3.0 added async).
   */
  private static final class ByApiLevel implements AgentBuilder.Transformer {
    private final String probe;
    private final AgentBuilder.Transformer withProbe;
    private final AgentBuilder.Transformer without;

    ByApiLevel(String probe, AgentBuilder.Transformer withProbe, AgentBuilder.Transformer without) {
      this.probe = probe;
      this.withProbe = withProbe;
      this.without = without;
    }

    @Override
    public DynamicType.Builder<?> transform(
        DynamicType.Builder<?> builder,
        TypeDescription type,
        ClassLoader loader,
        JavaModule module,
        ProtectionDomain domain) {
      boolean present =
          loader == null
              ? ClassLoader.getSystemResource(probe) != null
              : loader.getResource(probe) != null;
      return (present ? withProbe : without).transform(builder, type, loader, module, domain);
    }
  }
}
