package io.levee.bootstrap.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.fakeservlet.AsyncContext;
import io.levee.bootstrap.fakeservlet.AsyncEvent;
import io.levee.bootstrap.fakeservlet.AsyncListener;
import io.levee.bootstrap.fakeservlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsyncCompletionTest {
  private final List<String> exits = new ArrayList<>();

  @AfterEach
  void uninstall() {
    Levee.install(null);
  }

  private static Permit permit(String name) {
    return new Permit(0, 0, 0) {
      @Override
      public String toString() {
        return name;
      }
    };
  }

  private void record() {
    Levee.install(
        new Dispatcher() {
          @Override
          public void exit(Object token, long startNanos, int status, Throwable error) {
            exits.add(token + " " + status + " " + (error == null ? "-" : error.getMessage()));
          }
        });
  }

  @Test
  void resolvesTheServletApiOncePerListenerType() {
    assertThat(AsyncCompletion.api(AsyncListener.class))
        .isSameAs(AsyncCompletion.api(AsyncListener.class));
  }

  @Test
  void reportsTheFinalStatusOnceWhenTheRequestCompletes() {
    record();
    AsyncContext context = new AsyncContext();
    HttpServletResponse response = () -> 202;

    AsyncCompletion.attach(AsyncListener.class, context, response, permit("t"), 5L);
    AsyncCompletion.attach(AsyncListener.class, context, response, permit("u"), 6L);

    assertThat(context.listeners).hasSize(2);
    context.listeners.get(0).onComplete(new AsyncEvent(context, null));
    context.listeners.get(0).onError(new AsyncEvent(context, new RuntimeException("late")));
    context.listeners.get(1).onError(new AsyncEvent(context, new RuntimeException("boom")));
    assertThat(exits).containsExactly("t 202 -", "u 202 boom");
  }

  @Test
  void followsANewAsyncCycle() {
    record();
    AsyncContext first = new AsyncContext();
    AsyncContext second = new AsyncContext();
    AsyncCompletion.attach(
        AsyncListener.class, first, (HttpServletResponse) () -> 200, permit("t"), 1L);

    first.listeners.get(0).onStartAsync(new AsyncEvent(second, null));

    assertThat(second.listeners).containsExactly(first.listeners.get(0));
    assertThat(exits).isEmpty();
  }
}
