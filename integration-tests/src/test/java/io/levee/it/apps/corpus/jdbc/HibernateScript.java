package io.levee.it.apps.corpus.jdbc;

import jakarta.persistence.ParameterMode;
import java.util.function.Supplier;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.procedure.ProcedureCall;

/**
 * The corpus script through Hibernate ORM on the combination's pool: the schema made and dropped by
 * Hibernate itself, entities persisted, queried, updated by HQL and by dirty checking, removed, a
 * transaction rolled back, a stored function called, a failing native query and a duplicate key;
 * then the guard's two SELECTs, one by {@code find} and one by HQL.
 */
final class HibernateScript {
  private static final String ROUTINE = "corpus_hibernate_twice";

  private final Connections connections;
  private final Out out;

  HibernateScript(Connections connections, Out out) {
    this.connections = connections;
    this.out = out;
  }

  void run() {
    StandardServiceRegistry registry =
        new StandardServiceRegistryBuilder()
            .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, connections.dataSource())
            .applySetting(AvailableSettings.HBM2DDL_AUTO, "create-drop")
            .build();
    try (SessionFactory sessions =
        new MetadataSources(registry)
            .addAnnotatedClass(HibernateItem.class)
            .addAnnotatedClass(HibernateGuarded.class)
            .buildMetadata()
            .buildSessionFactory()) {
      run(sessions);
    }
  }

  private void run(SessionFactory sessions) {
    sessions.inTransaction(
        s -> {
          s.persist(new HibernateItem(1, "apple", 3));
          s.persist(new HibernateItem(2, "pear", 5));
          s.persist(new HibernateItem(3, "plum", 7));
          s.persist(new HibernateGuarded(1, "only"));
        });
    rows(sessions);
    out.put(
        "hql update",
        sessions.fromTransaction(
            s ->
                s.createMutationQuery("update HibernateItem set qty = qty + 10 where qty < :below")
                    .setParameter("below", 4)
                    .executeUpdate()));
    sessions.inTransaction(s -> s.find(HibernateItem.class, 2).rename("pear, renamed"));
    sessions.inTransaction(s -> s.remove(s.find(HibernateItem.class, 3)));
    rows(sessions);
    try (Session s = sessions.openSession()) {
      Transaction tx = s.beginTransaction();
      s.persist(new HibernateItem(9, "date", 4));
      s.flush();
      out.put("in transaction count", count(s));
      tx.rollback();
    }
    out.put("after rollback count", sessions.fromSession(HibernateScript::count));
    out.put("callable", callFunction(sessions));
    out.put(
        "missing table",
        failure(
            () ->
                sessions.fromSession(
                    s ->
                        s.createNativeQuery("select id from corpus_missing_table", Integer.class)
                            .list())));
    out.put(
        "duplicate key",
        failure(
            () -> {
              sessions.inTransaction(s -> s.persist(new HibernateItem(1, "apple again", 1)));
              return null;
            }));
    rows(sessions);
    out.put(
        "guard first",
        guarded(
            () -> sessions.fromSession(s -> s.find(HibernateGuarded.class, 1) == null ? 0 : 1)));
    out.put(
        "guard second",
        guarded(
            () ->
                sessions.fromSession(
                    s ->
                        s.createSelectionQuery(
                                "from HibernateGuarded where id = :id", HibernateGuarded.class)
                            .setParameter("id", 1)
                            .list()
                            .size())));
  }

  /**
   * A stored function through Hibernate's {@code ProcedureCall}, which always prepares a {@code
   * CallableStatement} (for PostgreSQL with the SQL {@code select f(?)}).
   */
  private static Integer callFunction(SessionFactory sessions) {
    sessions.inTransaction(
        s ->
            s.createNativeMutationQuery(
                    "CREATE OR REPLACE FUNCTION "
                        + ROUTINE
                        + "(x INT) RETURNS INT LANGUAGE sql"
                        + " AS 'SELECT x * 2'")
                .executeUpdate());
    Integer twice =
        sessions.fromSession(
            s -> {
              ProcedureCall call = s.createStoredProcedureCall(ROUTINE);
              call.markAsFunctionCall(Integer.class);
              call.registerParameter(1, Integer.class, ParameterMode.IN);
              call.setParameter(1, 21);
              return (Integer) call.getSingleResult();
            });
    sessions.inTransaction(
        s -> s.createNativeMutationQuery("DROP FUNCTION " + ROUTINE + "(INT)").executeUpdate());
    return twice;
  }

  private void rows(SessionFactory sessions) {
    sessions.inSession(
        s ->
            s.createSelectionQuery("from HibernateItem order by id", HibernateItem.class)
                .list()
                .forEach(item -> out.put("row", item)));
  }

  private static long count(Session s) {
    return s.createSelectionQuery("select count(*) from HibernateItem", Long.class)
        .getSingleResult();
  }

  private static String guarded(Supplier<Integer> rows) {
    try {
      return rows.get() + " row(s)";
    } catch (RuntimeException e) {
      return "blocked " + Out.chain(e);
    }
  }

  private static String failure(Supplier<?> call) {
    try {
      call.get();
      return "no exception";
    } catch (RuntimeException e) {
      return Out.chain(e);
    }
  }
}
