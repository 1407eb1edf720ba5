package io.levee.it.servlet;

import io.levee.it.apps.tomcat.TomcatApp;

class TomcatJdk17ServletIT extends ServletContract {
  @Override
  protected Class<?> application() {
    return TomcatApp.class;
  }

  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected boolean closesAfterA503() {
    return true;
  }
}
