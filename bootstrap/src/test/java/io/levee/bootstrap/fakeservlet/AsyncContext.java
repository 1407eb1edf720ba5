package io.levee.bootstrap.fakeservlet;

import java.util.ArrayList;
import java.util.List;

public class AsyncContext {
  public final List<AsyncListener> listeners = new ArrayList<>();

  public void addListener(AsyncListener listener) {
    listeners.add(listener);
  }
}
