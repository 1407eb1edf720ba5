package org.example.greeter;

/** Greets by name. */
public final class Greeter {
  private final String greeting;

  public Greeter(String greeting) {
    this.greeting = greeting;
  }

  public String greet(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a name is needed");
    }
    return greeting + ", " + name.strip() + "!";
  }

  public static void main(String[] args) {
    System.out.println(new Greeter("Hello").greet(args.length > 0 ? args[0] : "world"));
  }
}
