package io.levee.it.servlet;

import io.levee.it.apps.tomcat.TomcatApp;

class TomcatJdk17PrioritiesIT extends PrioritiesContract {
  @Override
  protected Class<?> application() {
    return TomcatApp.class;
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
