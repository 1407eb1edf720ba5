package io.levee.it.http;

import io.levee.it.apps.jetty.JettyApp;

class Jdk25ClientIT extends JdkClientContract {
  @Override
  protected Class<?> application() {
    return JettyApp.class;
  }

  @Override
  protected int jdk() {
    return 25;
  }
}
