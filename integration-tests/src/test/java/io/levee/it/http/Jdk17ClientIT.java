package io.levee.it.http;

import io.levee.it.apps.tomcat.TomcatApp;

class Jdk17ClientIT extends JdkClientContract {
  @Override
  protected Class<?> application() {
    return TomcatApp.class;
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
