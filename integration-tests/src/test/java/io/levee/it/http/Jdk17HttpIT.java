package io.levee.it.http;

import io.levee.it.apps.tomcat.TomcatApp;

class Jdk17HttpIT extends HttpContract {
  @Override
  protected Class<?> application() {
    return TomcatApp.class;
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
