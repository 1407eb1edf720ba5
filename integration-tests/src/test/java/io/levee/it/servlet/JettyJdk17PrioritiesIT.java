package io.levee.it.servlet;

import io.levee.it.apps.jetty.JettyApp;

class JettyJdk17PrioritiesIT extends PrioritiesContract {
  @Override
  protected Class<?> application() {
    return JettyApp.class;
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
