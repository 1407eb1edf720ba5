package io.levee.bootstrap.jdkhttp;

import io.levee.bootstrap.http.HttpAnswer;

/**
 * What the hooks of {@code java.net.http.HttpClient} hand to code that can see the client's types:
 * the agent defines it beside the JDK's {@code java.net.http} module (compiled for Java 11, never
 * loaded on an older JVM), and the bridge, which only sees java.base, reaches it through this
 * interface. Every argument is one of the client's own objects, typed {@code Object} here.
 */
public interface JdkHttpCalls {
  /**
   * Decides the call of {@code request} (an {@code HttpRequest}): the dispatcher's token, null when
   * untracked.
   */
  Object enter(Object request);

  /**
   * Reports the outcome of the call {@code permit} admitted when {@code future} (the {@code
   * CompletableFuture} of its response) completes, and keeps its answer when the resource keeps
   * last good answers. Never changes the future.
   */
  void track(Object future, Object permit, long start, Object request);

  /**
   * A {@code CompletableFuture} of the response {@code answer} as the client's own {@code
   * HttpResponse}, its body made by the caller's {@code handler}.
   */
  Object fallback(Object request, Object handler, HttpAnswer answer);
}
