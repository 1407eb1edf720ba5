package methodapp.shop;

/** The unchecked exception a rule may name for blocked quotes. */
public class QuoteUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QuoteUnavailableException(String message) {
    super(message);
  }
}
