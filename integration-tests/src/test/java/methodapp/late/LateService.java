package methodapp.late;

import methodapp.Gate;

/** Loaded only when the application first uses it, by name. */
public class LateService {
  public String work(String job) {
    Gate.enter();
    return "worked " + job;
  }
}
