package methodapp.shop;

import methodapp.Gate;

/** A partner's client that fails when asked to ({@code "fail"}). */
public class Partner {
  public String call(String request) {
    Gate.enter();
    if (request.equals("fail")) {
      throw new IllegalStateException("partner down");
    }
    return "answered " + request;
  }
}
