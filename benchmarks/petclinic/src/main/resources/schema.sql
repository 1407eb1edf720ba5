CREATE TABLE IF NOT EXISTS owners (
  id INTEGER PRIMARY KEY,
  first_name VARCHAR(40) NOT NULL,
  last_name VARCHAR(40) NOT NULL,
  address VARCHAR(80) NOT NULL,
  city VARCHAR(40) NOT NULL,
  telephone VARCHAR(20) NOT NULL
);
CREATE INDEX IF NOT EXISTS owners_last_name ON owners (last_name);
CREATE TABLE IF NOT EXISTS pets (
  id INTEGER PRIMARY KEY,
  name VARCHAR(40) NOT NULL,
  birth_date DATE NOT NULL,
  type VARCHAR(20) NOT NULL,
  owner_id INTEGER NOT NULL REFERENCES owners (id)
);
CREATE INDEX IF NOT EXISTS pets_owner_id ON pets (owner_id);
CREATE TABLE IF NOT EXISTS visits (
  id INTEGER PRIMARY KEY,
  pet_id INTEGER NOT NULL REFERENCES pets (id),
  visit_date DATE NOT NULL,
  description VARCHAR(255) NOT NULL
);
CREATE INDEX IF NOT EXISTS visits_pet_id ON visits (pet_id);
CREATE TABLE IF NOT EXISTS specialties (
  id INTEGER PRIMARY KEY,
  name VARCHAR(40) NOT NULL
);
CREATE TABLE IF NOT EXISTS vets (
  id INTEGER PRIMARY KEY,
  first_name VARCHAR(40) NOT NULL,
  last_name VARCHAR(40) NOT NULL
);
CREATE TABLE IF NOT EXISTS vet_specialties (
  vet_id INTEGER NOT NULL REFERENCES vets (id),
  specialty_id INTEGER NOT NULL REFERENCES specialties (id),
  PRIMARY KEY (vet_id, specialty_id)
);
