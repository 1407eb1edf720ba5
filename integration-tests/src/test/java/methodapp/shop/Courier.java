package methodapp.shop;

import methodapp.Gate;

/**
 * A courier's client, for the policies besides concurrency and the breaker: a rate limit on {@code
 * send}, a breaker that counts only some exceptions on {@code track}, an adaptive limit on {@code
 * deliver}.
 */
public class Courier {
  public String send(String parcel) {
    Gate.enter();
    return "sent " + parcel;
  }

  /** {@code "busy"}: the courier is down; {@code "bad"}: the application asked wrongly. */
  public String track(String parcel) {
    Gate.enter();
    if (parcel.equals("busy")) {
      throw new IllegalStateException("courier busy");
    }
    if (parcel.equals("bad")) {
      throw new IllegalArgumentException("no such parcel");
    }
    return "on its way " + parcel;
  }

  public String deliver(String parcel) {
    Gate.enter();
    return "delivered " + parcel;
  }
}
