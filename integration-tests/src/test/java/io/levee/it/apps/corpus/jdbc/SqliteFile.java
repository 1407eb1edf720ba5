package io.levee.it.apps.corpus.jdbc;

/**
 * SQLite's database: a file in the corpus's scratch folder rather than {@code :memory:}, whose
 * database is private to one connection and so would vanish between two borrows from a pool.
 */
final class SqliteFile {
  private SqliteFile() {}

  static String url() {
    return "jdbc:sqlite:" + Scratch.dir().resolve("corpus.sqlite");
  }
}
