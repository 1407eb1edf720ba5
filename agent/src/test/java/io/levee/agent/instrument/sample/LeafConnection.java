package io.levee.agent.instrument.sample;

import java.io.IOException;

/** Reaches a target API only through an application class, {@link BaseConnection}. */
public class LeafConnection extends BaseConnection {
  public LeafConnection() throws IOException {}

  @Override
  public void connect() {}

  @Override
  public void disconnect() {}

  @Override
  public boolean usingProxy() {
    return false;
  }

  public String read(String what) {
    return what;
  }
}
