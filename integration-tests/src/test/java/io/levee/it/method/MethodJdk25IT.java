package io.levee.it.method;

class MethodJdk25IT extends MethodContract {
  @Override
  protected int jdk() {
    return 25;
  }
}
