package io.levee.petclinic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A petclinic-like Spring MVC + JPA application over PostgreSQL, for the agent's benchmarks. */
@SpringBootApplication
public class PetclinicApplication {
  public static void main(String[] args) {
    SpringApplication.run(PetclinicApplication.class, args);
  }
}
