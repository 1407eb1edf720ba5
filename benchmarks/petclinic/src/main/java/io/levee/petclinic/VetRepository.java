package io.levee.petclinic;

import java.util.List;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

/** Every vet with its specialties. */
public interface VetRepository extends Repository<Vet, Integer> {
  @Query(
      "select distinct v from Vet v left join fetch v.specialties order by v.lastName, v.firstName")
  List<Vet> findAllWithSpecialties();
}
