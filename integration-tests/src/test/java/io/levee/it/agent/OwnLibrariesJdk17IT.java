package io.levee.it.agent;

class OwnLibrariesJdk17IT extends OwnLibrariesContract {
  @Override
  protected int jdk() {
    return 17;
  }
}
