package methodapp.shop;

import methodapp.Gate;

/** A plain service class whose {@code reserve} calls {@code stock}, another of its methods. */
public class Inventory {
  public String reserve(String item) {
    return stock(item) > 0 ? "reserved " + item : "out of " + item;
  }

  public int stock(String item) {
    Gate.enter();
    return item.length();
  }
}
