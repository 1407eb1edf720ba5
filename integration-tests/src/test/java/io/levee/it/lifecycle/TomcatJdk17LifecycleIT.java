package io.levee.it.lifecycle;

import io.levee.it.apps.tomcat.TomcatApp;

class TomcatJdk17LifecycleIT extends LifecycleContract {
  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected Class<?> app() {
    return TomcatApp.class;
  }

  @Override
  protected String httpServlet() {
    return "javax.servlet.http.HttpServlet";
  }
}
