package org.example.greeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GreeterTest {
  @Test
  void greetsByName() {
    assertEquals("Hello, Ada!", new Greeter("Hello").greet(" Ada "));
  }

  @Test
  void needsAName() {
    assertThrows(IllegalArgumentException.class, () -> new Greeter("Hello").greet(" "));
  }
}
