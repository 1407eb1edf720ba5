package methodapp.shop;

import methodapp.Gate;

/**
 * The target behind the {@link Ledger} proxy. {@code audit} is public but not a method of {@link
 * Ledger}.
 */
public class LedgerBook implements Ledger {
  @Override
  public String post(String entry) {
    Gate.enter();
    return "posted " + entry;
  }

  public String audit() {
    return "audited";
  }
}
