package io.levee.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.time.LocalDate;
import java.util.List;

/** An owner's pet and its visits. */
@Entity
@Table(name = "pets")
public class Pet {
  @Id Integer id;
  String name;
  LocalDate birthDate;
  String type;

  @ManyToOne(fetch = FetchType.LAZY)
  Owner owner;

  @OneToMany(mappedBy = "pet")
  @OrderBy("visitDate desc")
  List<Visit> visits;
}
