package io.levee.it.http;

import io.levee.it.apps.jetty.JettyApp;

class Jdk25HttpIT extends HttpContract {
  @Override
  protected Class<?> application() {
    return JettyApp.class;
  }

  @Override
  protected int jdk() {
    return 25;
  }
}
