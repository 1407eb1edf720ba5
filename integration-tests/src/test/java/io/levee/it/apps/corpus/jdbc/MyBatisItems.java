package io.levee.it.apps.corpus.jdbc;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.mapping.StatementType;

/**
 * The MyBatis mapper of the corpus (MariaDB through Connector/J): annotated SQL, as a MyBatis
 * application without XML writes it. The table names are those of the combination {@code
 * mybatis-druid/mariadb-cj}.
 */
public interface MyBatisItems {
  String T = "corpus_mybatis_druid_mariadb_cj";
  String G = "corpus_guard_mybatis_druid_mariadb_cj";
  String ROUTINE = "corpus_mybatis_twice";

  @Update("DROP TABLE IF EXISTS " + T)
  void drop();

  @Update("CREATE TABLE " + T + " (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, qty INT)")
  int create();

  @Insert("INSERT INTO " + T + " (id, name, qty) VALUES (#{id}, #{name}, #{qty})")
  int insert(MyBatisItem item);

  @Select("SELECT id, name, qty FROM " + T + " ORDER BY id")
  List<MyBatisItem> all();

  @Select("SELECT COUNT(*) FROM " + T)
  int count();

  @Update("UPDATE " + T + " SET qty = qty + #{by} WHERE qty < #{below}")
  int raise(@Param("by") int by, @Param("below") int below);

  @Delete("DELETE FROM " + T + " WHERE id = #{id}")
  int delete(int id);

  @Update("DROP PROCEDURE IF EXISTS " + ROUTINE)
  void dropRoutine();

  @Update("CREATE PROCEDURE " + ROUTINE + "(IN x INT, OUT y INT) SET y = x * 2")
  void createRoutine();

  /** {@code params}: {@code x} in, {@code y} out. */
  @Select(
      "{call " + ROUTINE + "(#{x, mode=IN, jdbcType=INTEGER}, #{y, mode=OUT, jdbcType=INTEGER})}")
  @Options(statementType = StatementType.CALLABLE)
  void twice(Map<String, Object> params);

  @Select("SELECT id FROM corpus_missing_table")
  List<Integer> missing();

  @Update("DROP TABLE IF EXISTS " + G)
  void dropGuard();

  @Update("CREATE TABLE " + G + " (id INT PRIMARY KEY, name VARCHAR(40))")
  void createGuard();

  @Insert("INSERT INTO " + G + " VALUES (1, 'only')")
  void insertGuard();

  @Select("SELECT id, name FROM " + G + " WHERE id = #{id}")
  List<MyBatisItem> guarded(int id);
}
