package methodapp.shop;

import methodapp.Gate;

public class AuditLog {
  public String record(String event) {
    Gate.enter();
    return "recorded " + event;
  }
}
