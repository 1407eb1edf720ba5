package methodapp.shop;

import methodapp.Gate;

public class FastQuotes implements Quotes {
  @Override
  public String quote(String item) {
    Gate.enter();
    return "fast " + item;
  }
}
