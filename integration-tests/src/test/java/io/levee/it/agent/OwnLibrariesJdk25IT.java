package io.levee.it.agent;

class OwnLibrariesJdk25IT extends OwnLibrariesContract {
  @Override
  protected int jdk() {
    return 25;
  }
}
