package io.levee.it.lifecycle;

class Jdk25LifecycleIT extends LifecycleContract {
  @Override
  protected int jdk() {
    return 25;
  }
}
