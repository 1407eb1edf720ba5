package methodapp.shop;

/** An interface with two implementations, {@link FastQuotes} and {@link CheapQuotes}. */
public interface Quotes {
  String quote(String item);
}
