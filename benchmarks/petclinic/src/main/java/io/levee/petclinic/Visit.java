package io.levee.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.LocalDate;

/** A visit of a pet to the clinic. */
@Entity
@Table(name = "visits")
public class Visit {
  @Id Integer id;
  LocalDate visitDate;
  String description;

  @ManyToOne(fetch = FetchType.LAZY)
  Pet pet;
}
