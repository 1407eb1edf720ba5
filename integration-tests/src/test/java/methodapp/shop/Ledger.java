package methodapp.shop;

/** An interface the application reaches through a JDK dynamic proxy. */
public interface Ledger {
  String post(String entry);
}
