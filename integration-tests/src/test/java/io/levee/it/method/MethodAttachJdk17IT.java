package io.levee.it.method;

class MethodAttachJdk17IT extends MethodAttachContract {
  @Override
  protected int jdk() {
    return 17;
  }
}
