package io.levee.it.method;

class MethodAttachJdk25IT extends MethodAttachContract {
  @Override
  protected int jdk() {
    return 25;
  }
}
