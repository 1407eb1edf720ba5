package methodapp.shop;

/** A subclass whose override calls {@code super}: both methods are the same resource's. */
public class DiscountInventory extends Inventory {
  @Override
  public int stock(String item) {
    return super.stock(item) + 1;
  }
}
