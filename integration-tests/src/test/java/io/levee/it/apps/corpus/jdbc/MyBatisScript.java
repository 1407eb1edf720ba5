package io.levee.it.apps.corpus.jdbc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.ibatis.executor.BatchResult;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;

/**
 * The corpus script through MyBatis: the same kinds of statement as {@link JdbcScript}, as mapper
 * calls in sessions (auto-commit, batch, a transaction rolled back), and the guard's two SELECTs.
 */
final class MyBatisScript {
  private final SqlSessionFactory sessions;
  private final Out out;

  MyBatisScript(Connections connections, Out out) {
    Configuration config =
        new Configuration(
            new Environment("corpus", new JdbcTransactionFactory(), connections.dataSource()));
    config.addMapper(MyBatisItems.class);
    this.sessions = new SqlSessionFactoryBuilder().build(config);
    this.out = out;
  }

  void run() {
    inSession(
        m -> {
          m.drop();
          out.put("create", m.create());
          out.put("insert", m.insert(new MyBatisItem(1, "apple", 3)));
        });
    try (SqlSession batch = sessions.openSession(ExecutorType.BATCH)) {
      MyBatisItems m = batch.getMapper(MyBatisItems.class);
      m.insert(new MyBatisItem(2, "pear", 5));
      m.insert(new MyBatisItem(3, "plum", 7));
      m.insert(new MyBatisItem(4, "fig", 2));
      List<BatchResult> results = batch.flushStatements();
      out.put(
          "batch",
          results.stream()
              .map(r -> Arrays.toString(r.getUpdateCounts()))
              .collect(Collectors.joining(" ")));
      batch.commit();
    }
    inSession(
        m -> {
          m.all().forEach(item -> out.put("row", item));
          out.put("update", m.raise(10, 4));
          out.put("delete", m.delete(3));
          m.dropRoutine();
          m.createRoutine();
          Map<String, Object> params = new HashMap<>();
          params.put("x", 21);
          m.twice(params);
          m.dropRoutine();
          out.put("callable", params.get("y"));
        });
    try (SqlSession tx = sessions.openSession(false)) {
      MyBatisItems m = tx.getMapper(MyBatisItems.class);
      out.put("in transaction insert", m.insert(new MyBatisItem(9, "date", 4)));
      out.put("in transaction count", m.count());
      tx.rollback();
      out.put("after rollback count", m.count());
    }
    inSession(
        m -> {
          out.put("missing table", failure(() -> m.missing()));
          out.put("duplicate key", failure(() -> m.insert(new MyBatisItem(1, "apple again", 1))));
          m.all().forEach(item -> out.put("row", item));
          m.drop();
          m.dropGuard();
          m.createGuard();
          m.insertGuard();
        });
    out.put("guard first", autoCommit(MyBatisScript::guarded));
    out.put("guard second", autoCommit(MyBatisScript::guarded));
    inSession(MyBatisItems::dropGuard);
  }

  private static String guarded(MyBatisItems m) {
    try {
      return m.guarded(1).size() + " row(s)";
    } catch (RuntimeException e) {
      return "blocked " + Out.chain(e);
    }
  }

  private static String failure(Runnable call) {
    try {
      call.run();
      return "no exception";
    } catch (RuntimeException e) {
      return Out.chain(e);
    }
  }

  /** One auto-commit session, as a MyBatis application opens one per unit of work. */
  private void inSession(Consumer<MyBatisItems> work) {
    try (SqlSession session = sessions.openSession(true)) {
      work.accept(session.getMapper(MyBatisItems.class));
    }
  }

  /** {@link #inSession} for work with a result. */
  private <T> T autoCommit(Function<MyBatisItems, T> work) {
    try (SqlSession session = sessions.openSession(true)) {
      return work.apply(session.getMapper(MyBatisItems.class));
    }
  }
}
