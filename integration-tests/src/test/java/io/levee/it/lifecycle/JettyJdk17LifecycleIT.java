package io.levee.it.lifecycle;

import io.levee.it.apps.jetty.JettyApp;

class JettyJdk17LifecycleIT extends LifecycleContract {
  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected Class<?> app() {
    return JettyApp.class;
  }

  @Override
  protected String httpServlet() {
    return "jakarta.servlet.http.HttpServlet";
  }
}
