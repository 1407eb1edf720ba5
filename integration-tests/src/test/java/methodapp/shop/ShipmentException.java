package methodapp.shop;

/** A checked exception of the application's own, with the {@code (String)} constructor. */
public class ShipmentException extends Exception {
  private static final long serialVersionUID = 1L;

  public ShipmentException(String message) {
    super(message);
  }
}
