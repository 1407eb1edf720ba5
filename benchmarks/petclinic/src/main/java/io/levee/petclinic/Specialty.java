package io.levee.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A veterinary specialty (radiology, surgery, ...). */
@Entity
@Table(name = "specialties")
public class Specialty {
  @Id Integer id;
  String name;
}
