package methodapp.shop;

import methodapp.Gate;

public class CheapQuotes implements Quotes {
  @Override
  public String quote(String item) {
    Gate.enter();
    return "cheap " + item;
  }
}
