package io.levee.agent.instrument;

import io.levee.bootstrap.AdviceErrors;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/** What every integration builds its advice with, so they all fail the same way: open and logged. */
public final class AdviceSupport {
  /** Advice suppresses its own throwables; they go to {@link AdviceErrors#report} to be logged. */
  private static final Advice.ExceptionHandler REPORTING =
      new Advice.ExceptionHandler.Simple(
          MethodInvocation.invoke(
              new MethodDescription.ForLoadedMethod(reportMethod())));

  private static final ClassFileLocator BRIDGE =
      BridgeClassFiles.locator(AdviceSupport.class.getClassLoader());

  private AdviceSupport() {}

  /** An advice transformer that finds the advice classes next to {@code owner} and reports errors. */
  public static AgentBuilder.Transformer.ForAdvice advice(Class<?> owner) {
    return new AgentBuilder.Transformer.ForAdvice()
        .include(owner.getClassLoader())
        .include(BRIDGE)
        .withExceptionHandler(REPORTING);
  }

  /** A type matcher whose exception (a class it cannot resolve) means "no match", never a failure. */
  public static ElementMatcher.Junction<TypeDescription> failSafe(
      ElementMatcher<? super TypeDescription> matcher) {
    return ElementMatchers.failSafe(matcher);
  }

  private static java.lang.reflect.Method reportMethod() {
    try {
      return AdviceErrors.class.getMethod("report", Throwable.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }
}
