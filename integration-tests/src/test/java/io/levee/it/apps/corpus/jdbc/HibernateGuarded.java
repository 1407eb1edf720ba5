package io.levee.it.apps.corpus.jdbc;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The entity on the guard table of {@code hibernate-hikari/postgresql}, which the enforcing run
 * limits.
 */
@Entity
@Table(name = "corpus_guard_hibernate_hikari_postgresql")
public class HibernateGuarded {
  @Id private int id;
  private String name;

  protected HibernateGuarded() {}

  HibernateGuarded(int id, String name) {
    this.id = id;
    this.name = name;
  }
}
