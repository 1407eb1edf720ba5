package io.levee.petclinic;

import jakarta.annotation.PostConstruct;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Fills empty tables with the same data every time (a fixed seed): 5,000 owners with 1 to 4 pets
 * each (2.5 on average), 0 to 8 visits per pet (4 on average), 60 vets. Runs before the server
 * takes requests, and only once per database, so a second start reuses the data.
 */
@Component
class Seeder {
  static final int OWNERS = 5_000;
  static final int VETS = 60;
  static final String[] LAST_NAMES = {
    "Adams",
    "Baker",
    "Black",
    "Brown",
    "Campbell",
    "Carter",
    "Clark",
    "Collins",
    "Davis",
    "Davies",
    "Edwards",
    "Evans",
    "Franklin",
    "Garcia",
    "Green",
    "Hall",
    "Harris",
    "Hill",
    "Jackson",
    "Johnson",
    "Jones",
    "King",
    "Lee",
    "Lewis",
    "Lopez",
    "Martin",
    "Martinez",
    "McTavish",
    "Miller",
    "Mitchell",
    "Moore",
    "Morgan",
    "Nelson",
    "Parker",
    "Perez",
    "Phillips",
    "Roberts",
    "Robinson",
    "Rodriquez",
    "Schroeder",
    "Scott",
    "Smith",
    "Stewart",
    "Taylor",
    "Thomas",
    "Thompson",
    "Turner",
    "Walker",
    "White",
    "Williams",
    "Wilson",
    "Wright",
    "Young"
  };
  private static final String[] FIRST_NAMES = {
    "George", "Betty", "Eduardo", "Harold", "Peter", "Jean", "Jeff", "Maria", "David", "Carlos",
    "Helen", "James", "Linda", "Sharon", "Rafael", "Henry", "Sofia", "Igor", "Mei", "Amara"
  };
  private static final String[] CITIES = {
    "Madison", "Sun Prairie", "McFarland", "Windsor", "Monona", "Waunakee", "Middleton", "Verona"
  };
  private static final String[] TYPES = {"cat", "dog", "lizard", "snake", "bird", "hamster"};
  private static final String[] PET_NAMES = {
    "Leo", "Basil", "Rosy", "Jewel", "Iggy", "George", "Samantha", "Max", "Lucky", "Mulligan",
    "Freddy", "Sly", "Bella", "Milo", "Nala", "Oscar", "Pepper", "Ziggy", "Coco", "Tiger"
  };
  private static final String[] REASONS = {
    "rabies shot",
    "neutered",
    "spayed",
    "annual check-up",
    "dental cleaning",
    "limping",
    "skin rash",
    "vaccination booster",
    "ear infection",
    "weight check"
  };
  private static final String[] SPECIALTIES = {"radiology", "surgery", "dentistry", "cardiology"};
  private static final Logger log = LoggerFactory.getLogger(Seeder.class);

  private final JdbcTemplate jdbc;

  Seeder(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @PostConstruct
  void seed() {
    Integer existing = jdbc.queryForObject("select count(*) from owners", Integer.class);
    if (existing != null && existing > 0) {
      log.info("Reusing the {} owners already in the database", existing);
      return;
    }
    Random random = new Random(42);
    LocalDate today = LocalDate.of(2026, 1, 1);
    List<Object[]> owners = new ArrayList<>();
    List<Object[]> pets = new ArrayList<>();
    List<Object[]> visits = new ArrayList<>();
    for (int o = 1; o <= OWNERS; o++) {
      owners.add(
          new Object[] {
            o,
            pick(random, FIRST_NAMES),
            pick(random, LAST_NAMES),
            (100 + random.nextInt(9900)) + " Main St.",
            pick(random, CITIES),
            "608555" + (1000 + random.nextInt(9000))
          });
      for (int p = random.nextInt(4); p >= 0; p--) {
        int pet = pets.size() + 1;
        LocalDate born = today.minusDays(random.nextInt(5000));
        pets.add(
            new Object[] {
              pet, pick(random, PET_NAMES), Date.valueOf(born), pick(random, TYPES), o
            });
        for (int v = random.nextInt(9); v > 0; v--) {
          LocalDate day = today.minusDays(random.nextInt(2000));
          visits.add(
              new Object[] {visits.size() + 1, pet, Date.valueOf(day), pick(random, REASONS)});
        }
      }
    }
    jdbc.batchUpdate(
        "insert into owners (id, first_name, last_name, address, city, telephone)"
            + " values (?, ?, ?, ?, ?, ?)",
        owners);
    jdbc.batchUpdate(
        "insert into pets (id, name, birth_date, type, owner_id) values (?, ?, ?, ?, ?)", pets);
    jdbc.batchUpdate(
        "insert into visits (id, pet_id, visit_date, description) values (?, ?, ?, ?)", visits);
    seedVets(random);
    jdbc.execute("analyze");
    log.info("Seeded {} owners, {} pets, {} visits", owners.size(), pets.size(), visits.size());
  }

  private void seedVets(Random random) {
    for (int s = 0; s < SPECIALTIES.length; s++) {
      jdbc.update("insert into specialties (id, name) values (?, ?)", s + 1, SPECIALTIES[s]);
    }
    List<Object[]> vets = new ArrayList<>();
    List<Object[]> skills = new ArrayList<>();
    for (int v = 1; v <= VETS; v++) {
      vets.add(new Object[] {v, pick(random, FIRST_NAMES), pick(random, LAST_NAMES)});
      for (int s = 1; s <= SPECIALTIES.length; s++) {
        if (random.nextInt(3) == 0) {
          skills.add(new Object[] {v, s});
        }
      }
    }
    jdbc.batchUpdate("insert into vets (id, first_name, last_name) values (?, ?, ?)", vets);
    jdbc.batchUpdate("insert into vet_specialties (vet_id, specialty_id) values (?, ?)", skills);
  }

  private static String pick(Random random, String[] values) {
    return values[random.nextInt(values.length)];
  }
}
