package io.levee.petclinic;

import java.util.stream.Collectors;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The pages: owners (paged), owners found by last name, one owner with pets and visits, vets.
 * Parameters are named because the build does not compile with {@code -parameters}.
 */
@RestController
public class ClinicController {
  private static final int PAGE_SIZE = 20;
  private static final Sort BY_NAME = Sort.by("lastName", "firstName", "id");

  private final OwnerRepository owners;
  private final VetRepository vets;

  ClinicController(OwnerRepository owners, VetRepository vets) {
    this.owners = owners;
    this.vets = vets;
  }

  /** Not database work: what the script waits for, and what the rules leave out of `system`. */
  @GetMapping(value = "/health", produces = MediaType.TEXT_PLAIN_VALUE)
  String health() {
    return "ok\n";
  }

  @GetMapping(value = "/owners", produces = MediaType.TEXT_HTML_VALUE)
  String list(@RequestParam(name = "page", defaultValue = "0") int page) {
    Page<Owner> found = owners.findAll(PageRequest.of(page, PAGE_SIZE, BY_NAME));
    return ownerTable(new Html("Owners, page " + page), found);
  }

  @GetMapping(value = "/owners/search", produces = MediaType.TEXT_HTML_VALUE)
  String search(
      @RequestParam("lastName") String lastName,
      @RequestParam(name = "page", defaultValue = "0") int page) {
    Page<Owner> found =
        owners.findByLastNamePrefix(lastName, PageRequest.of(page, PAGE_SIZE, BY_NAME));
    return ownerTable(new Html("Owners named " + lastName + "*"), found);
  }

  @GetMapping(value = "/owners/{id}", produces = MediaType.TEXT_HTML_VALUE)
  String owner(@PathVariable("id") int id) {
    Owner o =
        owners
            .findWithPets(id)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    Html html = new Html(o.firstName + " " + o.lastName);
    html.raw("<p>").text(o.address + ", " + o.city + ", " + o.telephone).raw("</p>\n");
    for (Pet pet : o.pets) {
      html.raw("<h2>").text(pet.name + " (" + pet.type + ", born " + pet.birthDate + ")");
      html.raw("</h2>\n<table>\n");
      for (Visit v : pet.visits) {
        html.row(v.visitDate, v.description);
      }
      html.raw("</table>\n");
    }
    return html.end();
  }

  @GetMapping(value = "/vets", produces = MediaType.TEXT_HTML_VALUE)
  String vets() {
    Html html = new Html("Veterinarians").raw("<table>\n");
    for (Vet v : vets.findAllWithSpecialties()) {
      String specialties =
          v.specialties.stream().map(s -> s.name).collect(Collectors.joining(", "));
      html.row(v.firstName + " " + v.lastName, specialties.isEmpty() ? "none" : specialties);
    }
    return html.raw("</table>\n").end();
  }

  private static String ownerTable(Html html, Page<Owner> found) {
    html.raw("<p>").text(found.getTotalElements() + " owners").raw("</p>\n<table>\n");
    for (Owner o : found) {
      String pets = o.pets.stream().map(p -> p.name).collect(Collectors.joining(", "));
      html.row(o.firstName + " " + o.lastName, o.address, o.city, o.telephone, pets);
    }
    return html.raw("</table>\n").end();
  }
}
