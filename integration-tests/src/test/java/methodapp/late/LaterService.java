package methodapp.late;

import methodapp.Gate;

/**
 * Loaded only when the application first uses it, by name; used by other tests than {@link
 * LateService}.
 */
public class LaterService {
  public String work(String job) {
    Gate.enter();
    return "worked later " + job;
  }
}
