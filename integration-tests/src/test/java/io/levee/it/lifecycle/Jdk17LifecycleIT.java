package io.levee.it.lifecycle;

class Jdk17LifecycleIT extends LifecycleContract {
  @Override
  protected int jdk() {
    return 17;
  }
}
