package io.levee.petclinic;

import java.util.Optional;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/** Owners: one page of all, a search by the start of the last name, one with its pets. */
public interface OwnerRepository extends Repository<Owner, Integer> {
  Page<Owner> findAll(Pageable pageable);

  @Query(
      value = "select o from Owner o where lower(o.lastName) like lower(concat(:prefix, '%'))",
      countQuery =
          "select count(o) from Owner o where lower(o.lastName) like lower(concat(:prefix, '%'))")
  Page<Owner> findByLastNamePrefix(@Param("prefix") String prefix, Pageable pageable);

  @Query("select o from Owner o left join fetch o.pets where o.id = :id")
  Optional<Owner> findWithPets(@Param("id") int id);
}
