package methodapp.shop;

import methodapp.Gate;

/** Only static methods: protected when a rule lists them by name. */
public final class Prices {
  private Prices() {}

  public static String lookup(String item) {
    Gate.enter();
    return "price of " + item;
  }
}
