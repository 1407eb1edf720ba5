package io.levee.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.List;

/** A veterinarian and the specialties they practise. */
@Entity
@Table(name = "vets")
public class Vet {
  @Id Integer id;
  String firstName;
  String lastName;

  @ManyToMany
  @JoinTable(
      name = "vet_specialties",
      joinColumns = @JoinColumn(name = "vet_id"),
      inverseJoinColumns = @JoinColumn(name = "specialty_id"))
  @OrderBy("name")
  List<Specialty> specialties;
}
