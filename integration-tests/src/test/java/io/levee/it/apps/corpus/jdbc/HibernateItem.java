package io.levee.it.apps.corpus.jdbc;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The corpus's Hibernate entity; its table is that of the combination {@code
 * hibernate-hikari/postgresql}.
 */
@Entity
@Table(name = "corpus_hibernate_hikari_postgresql")
public class HibernateItem {
  @Id private int id;
  private String name;
  private int qty;

  protected HibernateItem() {}

  HibernateItem(int id, String name, int qty) {
    this.id = id;
    this.name = name;
    this.qty = qty;
  }

  void rename(String to) {
    this.name = to;
  }

  @Override
  public String toString() {
    return id + " " + name + " " + qty;
  }
}
