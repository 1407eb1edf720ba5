package io.levee.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.List;

/** A pet owner. */
@Entity
@Table(name = "owners")
public class Owner {
  @Id Integer id;
  String firstName;
  String lastName;
  String address;
  String city;
  String telephone;

  @OneToMany(mappedBy = "owner")
  @OrderBy("name")
  List<Pet> pets;
}
