package io.levee.it.method;

class MethodJdk17IT extends MethodContract {
  @Override
  protected int jdk() {
    return 17;
  }
}
