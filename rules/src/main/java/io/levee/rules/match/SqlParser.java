package io.levee.rules.match;

import io.levee.rules.model.Operation;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Finds the operation and the tables of one SQL text in a single pass over {@link SqlLexer}'s
 * tokens, without a grammar: no SQL dialect would fit one, and a wrong guess must cost a missed
 * table, never an exception.
 *
 * <p>How it reads: a <em>head</em> is the first word of a statement (at the start, after {@code ;},
 * after {@code (}, after a CTE list); the first head outside a CTE body gives the operation. Table
 * names are taken only where a statement that a head opened at the same parenthesis depth puts
 * them: after {@code FROM}, {@code JOIN}, {@code APPLY}, after a comma inside a {@code FROM} list,
 * after {@code INTO} of {@code INSERT}/{@code MERGE}, after {@code USING} of {@code MERGE}/{@code
 * DELETE}, and right after the head of {@code UPDATE}, {@code DELETE}, {@code INSERT}, {@code
 * MERGE}, {@code CALL} and DDL. So {@code EXTRACT(YEAR FROM d)}, {@code FOR UPDATE} and {@code ON
 * DUPLICATE KEY UPDATE} name nothing. A name followed by {@code (} after {@code FROM} is a table
 * function, not a table. CTE names are dropped at the end, and so is Oracle's {@code dual}.
 *
 * <p>Cost: linear in the tokens, at most {@link SqlLexer#MAX_CHARS} characters; depth state is kept
 * for {@link #MAX_DEPTH} levels of parentheses, deeper ones share the last level.
 */
final class SqlParser {
  private static final int MAX_DEPTH = 64;
  private static final int MAX_TABLES = 64;

  private static final byte NONE = 0;
  private static final byte QUERY = 1;
  private static final byte INSERT = 2;
  private static final byte UPDATE = 3;
  private static final byte DELETE = 4;
  private static final byte MERGE = 5;
  private static final byte DDL = 6;
  private static final byte CALL = 7;

  private final SqlLexer lx;
  private final int n;
  private Operation operation;
  private final Set<String> tables = new LinkedHashSet<String>();
  private final Set<String> cteNames = new HashSet<String>();
  private final byte[] stmt = new byte[MAX_DEPTH];
  private final boolean[] fromList = new boolean[MAX_DEPTH];
  private final boolean[] cteBody = new boolean[MAX_DEPTH];
  private int depth;
  private int cteBodies;
  private boolean atHead = true;

  /** The next {@code (} opens a derived table or a parenthesised join, where a FROM item goes. */
  private boolean parenTable;

  SqlParser(String sql) {
    this.lx = new SqlLexer(sql);
    this.n = lx.count;
  }

  SqlInfo parse() {
    int i = 0;
    while (i < n) {
      int next = step(i);
      i = next > i ? next : i + 1;
    }
    tables.removeAll(cteNames);
    String[] names = tables.isEmpty() ? SqlInfo.NO_TABLES : tables.toArray(new String[0]);
    return new SqlInfo(operation == null ? Operation.OTHER : operation, names);
  }

  private int step(int i) {
    char p = lx.punct(i);
    if (p != 0) {
      return punct(i, p);
    }
    if (atHead) {
      return head(i);
    }
    if (lx.types[i] != SqlLexer.WORD) {
      return i + 1;
    }
    int d = level();
    String w = lx.texts[i];
    switch (w) {
      case "FROM":
        if (stmt[d] == NONE) {
          return i + 1;
        }
        fromList[d] = true;
        return tableRef(i + 1, true);
      case "JOIN":
      case "STRAIGHT_JOIN":
      case "APPLY":
        return stmt[d] == NONE ? i + 1 : tableRef(i + 1, true);
      case "INTO":
        return stmt[d] == INSERT || stmt[d] == MERGE ? tableRef(i + 1, false) : i + 1;
      case "USING":
        return stmt[d] == MERGE || stmt[d] == DELETE ? tableRef(i + 1, true) : i + 1;
      case "UNION":
      case "INTERSECT":
      case "EXCEPT":
      case "MINUS":
        fromList[d] = false;
        atHead = true;
        return lx.is(i + 1, "ALL") || lx.is(i + 1, "DISTINCT") ? i + 2 : i + 1;
      default:
        if (SqlKeywords.ENDS_FROM_LIST.contains(w)) {
          fromList[d] = false;
        }
        return i + 1;
    }
  }

  private int punct(int i, char p) {
    switch (p) {
      case '(':
        return open(i);
      case ')':
        return close(i);
      case ';':
        depth = 0;
        cteBodies = 0;
        reset(0);
        atHead = true;
        parenTable = false;
        return i + 1;
      case '{':
      case '?':
      case '=':
        // a JDBC escape "{? = call f(?)}" keeps the statement's head ahead
        return i + 1;
      case ',':
        atHead = false;
        return fromList[level()] ? tableRef(i + 1, true) : i + 1;
      default:
        atHead = false;
        return i + 1;
    }
  }

  private int open(int i) {
    boolean table = parenTable;
    parenTable = false;
    depth++;
    int d = level();
    reset(d);
    atHead = true;
    if (table && lx.isName(i + 1) && !lx.isQueryStart(i + 1)) {
      stmt[d] = QUERY;
      fromList[d] = true;
      atHead = false;
      return tableRef(i + 1, true);
    }
    parenTable = table && lx.punct(i + 1) == '(';
    return i + 1;
  }

  private int close(int i) {
    int d = level();
    boolean endsCte = cteBody[d];
    reset(d);
    if (depth > 0) {
      depth--;
    }
    atHead = false;
    parenTable = false;
    if (endsCte) {
      cteBodies = Math.max(0, cteBodies - 1);
      if (lx.punct(i + 1) == ',') {
        return cte(i + 2);
      }
      atHead = true;
    }
    return i + 1;
  }

  private int head(int i) {
    atHead = false;
    if (lx.types[i] != SqlLexer.WORD) {
      setOperation(Operation.OTHER);
      return i + 1;
    }
    int d = level();
    String w = lx.texts[i];
    switch (w) {
      case "WITH":
        stmt[d] = QUERY;
        return cte(lx.is(i + 1, "RECURSIVE") ? i + 2 : i + 1);
      case "SELECT":
      case "VALUES":
        setOperation(Operation.SELECT);
        stmt[d] = QUERY;
        return i + 1;
      case "INSERT":
      case "REPLACE":
      case "UPSERT":
        setOperation(Operation.INSERT);
        stmt[d] = INSERT;
        return insertTarget(i + 1);
      case "UPDATE":
        setOperation(Operation.UPDATE);
        stmt[d] = UPDATE;
        fromList[d] = true;
        return tableRef(skipModifiers(i + 1), true);
      case "DELETE":
        setOperation(Operation.DELETE);
        stmt[d] = DELETE;
        return deleteTarget(skipModifiers(i + 1));
      case "MERGE":
        // MERGE updates or inserts existing-keyed rows: an upsert, closest to UPDATE
        setOperation(Operation.UPDATE);
        stmt[d] = MERGE;
        return tableRef(lx.is(i + 1, "INTO") ? i + 2 : i + 1, false);
      case "CALL":
      case "EXEC":
      case "EXECUTE":
        setOperation(Operation.CALL);
        stmt[d] = CALL;
        return procedure(i + 1);
      case "CREATE":
      case "ALTER":
      case "DROP":
      case "TRUNCATE":
      case "RENAME":
        setOperation(Operation.DDL);
        stmt[d] = DDL;
        return ddl(i + 1, w);
      default:
        setOperation(Operation.OTHER);
        stmt[d] = NONE;
        return i + 1;
    }
  }

  private int cte(int j) {
    if (!lx.isName(j)) {
      atHead = true;
      return j;
    }
    cteNames.add(lx.lowerText(j));
    j++;
    if (lx.punct(j) == '(') {
      j = lx.skipParens(j);
    }
    j = lx.skipWords(j, "AS", "NOT", "MATERIALIZED");
    if (lx.punct(j) != '(') {
      atHead = true;
      return j;
    }
    depth++;
    int d = level();
    reset(d);
    cteBody[d] = true;
    cteBodies++;
    atHead = true;
    return j + 1;
  }

  private int insertTarget(int j) {
    while (j < n
        && lx.types[j] == SqlLexer.WORD
        && SqlKeywords.INSERT_MODIFIERS.contains(lx.texts[j])) {
      j++;
    }
    if (lx.is(j, "INTO")) {
      return tableRef(j + 1, false);
    }
    if (lx.is(j, "ALL") || lx.is(j, "FIRST")) {
      // Oracle's multi-table insert: each of its INTO clauses names a table
      return j + 1;
    }
    return tableRef(j, false);
  }

  private int deleteTarget(int j) {
    if (lx.is(j, "FROM")) {
      return j;
    }
    int end = lx.nameEnd(j);
    if (end == j || notATable(j)) {
      return j;
    }
    if (lx.is(end, "FROM") || lx.punct(end) == ',') {
      // MySQL's "DELETE t1, t2 FROM ..." lists aliases; the FROM clause names the tables
      return end;
    }
    add(lx.name(j, end));
    return end;
  }

  private int procedure(int j) {
    if (lx.isName(j) && lx.texts[j].startsWith("@") && lx.punct(j + 1) == '=') {
      j += 2;
    }
    if (lx.is(j, "IMMEDIATE") || !lx.isName(j)) {
      return j;
    }
    int end = lx.nameEnd(j);
    add(lx.name(j, end));
    return end;
  }

  private int ddl(int j, String verb) {
    if (verb.equals("TRUNCATE")) {
      return tableList(lx.skipWords(j, "TABLE", "ONLY", "IF", "EXISTS"));
    }
    if (verb.equals("RENAME")) {
      return tableRef(lx.is(j, "TABLE") ? j + 1 : j, false);
    }
    for (int k = 0; k < 12 && j < n && lx.punct(j) == 0; k++, j++) {
      if (lx.is(j, "TABLE") || lx.is(j, "VIEW")) {
        int name = lx.skipWords(j + 1, "IF", "NOT", "EXISTS", "ONLY");
        return verb.equals("DROP") ? tableList(name) : tableRef(name, false);
      }
      if (lx.is(j, "INDEX")) {
        for (int on = j + 1; on < j + 16 && on < n && lx.punct(on) != ';'; on++) {
          if (lx.is(on, "ON")) {
            return tableRef(on + 1, false);
          }
        }
        return j + 1;
      }
      if (lx.types[j] == SqlLexer.WORD && SqlKeywords.NO_TABLE_OBJECTS.contains(lx.texts[j])) {
        return j + 1;
      }
    }
    return j;
  }

  private int tableList(int j) {
    j = tableRef(j, false);
    while (lx.punct(j) == ',') {
      j = tableRef(j + 1, false);
    }
    return j;
  }

  /**
   * Reads the table named at j, if any. In a FROM item ({@code fromItem}) a name followed by {@code
   * (} is a table function and a {@code (} opens a derived table or a parenthesised join; elsewhere
   * a {@code (} after the name is its column list.
   */
  private int tableRef(int j, boolean fromItem) {
    while (true) {
      if (lx.is(j, "ONLY") || lx.is(j, "LATERAL") || lx.is(j, "TABLE") && lx.punct(j + 1) != '(') {
        j++;
      } else if (lx.punct(j) == '{') {
        j = lx.is(j + 1, "OJ") ? j + 2 : j + 1;
      } else {
        break;
      }
    }
    if (lx.punct(j) == '(') {
      parenTable = fromItem;
      return j;
    }
    if (!lx.isName(j) || notATable(j)) {
      return j;
    }
    int end = lx.nameEnd(j);
    if (fromItem && lx.punct(end) == '(') {
      return end;
    }
    add(lx.name(j, end));
    return end;
  }

  private void add(String table) {
    if (tables.size() < MAX_TABLES && !table.isEmpty() && !table.equals("dual")) {
      tables.add(table);
    }
  }

  private boolean notATable(int j) {
    return lx.types[j] == SqlLexer.WORD && SqlKeywords.NOT_A_TABLE.contains(lx.texts[j]);
  }

  private int skipModifiers(int j) {
    j = lx.skipWords(j, "LOW_PRIORITY", "QUICK", "IGNORE", "ONLY");
    if (lx.is(j, "TOP") && lx.punct(j + 1) == '(') {
      j = lx.skipParens(j + 1);
    }
    return j;
  }

  private void setOperation(Operation op) {
    if (operation == null && cteBodies == 0) {
      operation = op;
    }
  }

  private void reset(int d) {
    stmt[d] = NONE;
    fromList[d] = false;
    cteBody[d] = false;
  }

  private int level() {
    return Math.min(depth, MAX_DEPTH - 1);
  }
}
