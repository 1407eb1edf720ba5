package org.example.greetings;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small Spring Boot application as its users write them: Spring MVC over embedded Tomcat, Spring
 * Data JPA with Hibernate over HikariCP and an in-memory H2, and RestTemplate for outbound calls.
 */
@SpringBootApplication
public class GreetingsApplication {
  public static void main(String[] args) {
    SpringApplication.run(GreetingsApplication.class, args);
  }
}
