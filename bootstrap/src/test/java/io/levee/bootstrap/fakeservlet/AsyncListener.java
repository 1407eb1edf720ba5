package io.levee.bootstrap.fakeservlet;

/**
 * Stands in for a servlet API's listener: {@code AsyncCompletion} resolves its siblings by name.
 */
public interface AsyncListener {
  void onComplete(AsyncEvent event);

  void onError(AsyncEvent event);

  void onStartAsync(AsyncEvent event);

  void onTimeout(AsyncEvent event);
}
