package io.levee.bootstrap.fakeservlet;

public class AsyncEvent {
  private final AsyncContext context;
  private final Throwable error;

  public AsyncEvent(AsyncContext context, Throwable error) {
    this.context = context;
    this.error = error;
  }

  public AsyncContext getAsyncContext() {
    return context;
  }

  public Throwable getThrowable() {
    return error;
  }
}
