package methodapp.shop;

import methodapp.Gate;

/** {@code ship} declares a checked exception; {@code count} declares none. */
public class Warehouse {
  public String ship(String item) throws ShipmentException {
    Gate.enter();
    if (item.equals("refused")) {
      throw new ShipmentException("the carrier refused " + item);
    }
    return "shipped " + item;
  }

  public int count() {
    Gate.enter();
    return 1;
  }
}
