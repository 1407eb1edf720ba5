package methodapp.shop;

import methodapp.Gate;

/** A static helper beside an instance method, as legacy data access often is. */
public class Catalog {
  public static String find(String item) {
    Gate.enter();
    return "found " + item;
  }

  public String list(String shelf) {
    Gate.enter();
    return "listed " + shelf;
  }
}
