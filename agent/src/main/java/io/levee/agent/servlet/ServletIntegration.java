package io.levee.agent.servlet;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.constant;
import static io.levee.agent.instrument.Advice.Pass.intArg;
import static io.levee.agent.instrument.Advice.Pass.site;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.servlet.ServletHooks;

/**
 * Inbound requests (SPEC §2 {@code servlet}): {@code Servlet.service} and {@code Filter.doFilter}
 * implementations of javax.servlet (2.5 to 4) and jakarta.servlet (5 and 6). One decision per
 * request, at the outermost dispatch of type {@code REQUEST}. The woven methods call {@code
 * io.levee.bootstrap.servlet.ServletHooks}, which finds the hook for the API and class loader of
 * the woven class ({@link ServletCallsFactory}); the hooks differ only in the API they call.
 */
public final class ServletIntegration implements Integration {
  @Override
  public String name() {
    return "servlet";
  }

  @Override
  public void addTo(Transformations transformations) {
    ServletHooks.install(new ServletCallsFactory());
    transformations
        .add(servletOrFilter("javax.servlet", ServletHooks.JAVAX))
        .add(servletOrFilter("jakarta.servlet", ServletHooks.JAKARTA))
        .add(tomcatKeepsConnection());
  }

  /**
   * Tomcat's HTTP/1.1 processor closes a connection after a 503, Levee's default blocked answer for
   * the {@code system} limit: its {@code statusDropsConnection(int)} is skipped, and answers false,
   * for the status of Levee's own answer ({@code io.levee.bootstrap.servlet.OwnAnswer}).
   */
  private static TypeRule tomcatKeepsConnection() {
    Advice advice =
        Advice.in("io.levee.bootstrap.servlet.ServletHooks")
            .enter("keepsConnection", intArg(0))
            .skip(Advice.Skip.IF_NON_NULL);
    return TypeRule.implementing("org.apache.coyote.http11.Http11Processor")
        .within("org.apache.coyote.http11.Http11Processor")
        .methods(
            MethodRule.named("statusDropsConnection").taking("(I)Z").alsoStatic().weave(advice));
  }

  /**
   * {@code service(ServletRequest, ServletResponse)} and {@code doFilter(ServletRequest,
   * ServletResponse, FilterChain)}.
   */
  private static TypeRule servletOrFilter(String api, int id) {
    String p = "L" + api.replace('.', '/') + "/";
    Advice advice =
        Advice.in("io.levee.bootstrap.servlet.ServletHooks")
            .enter("enter", constant(id), site(), arg(0), arg(1))
            .timed()
            .skip(Advice.Skip.IF_BLOCKED)
            .exit("exit", "thrown", constant(id), site(), arg(0), arg(1))
            // backpressure answers a request that threw: the exception must not reach the container
            .recovers();
    return TypeRule.implementing(api + ".Servlet", api + ".Filter")
        .methods(
            MethodRule.named("service")
                .taking("(" + p + "ServletRequest;" + p + "ServletResponse;)")
                .weave(advice),
            MethodRule.named("doFilter")
                .taking("(" + p + "ServletRequest;" + p + "ServletResponse;" + p + "FilterChain;)")
                .weave(advice));
  }
}
