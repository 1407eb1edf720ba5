package io.levee.it.servlet;

import io.levee.it.apps.jetty.JettyApp;

class JettyJdk25ServletIT extends ServletContract {
  @Override
  protected Class<?> application() {
    return JettyApp.class;
  }

  @Override
  protected int jdk() {
    return 25;
  }

  @Override
  protected boolean closesAfterA503() {
    return false;
  }
}
