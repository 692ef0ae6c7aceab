// pgjdbc (Debian's libpostgresql-jdbc-java) against paceline-server: the
// DatabaseMetaData calls JDBC tools and benchmark harnesses build their
// table lists from, prepared statements, batch inserts rewritten into
// multi-row INSERTs, transactions at SERIALIZABLE with autocommit off, and
// a conflict's 40001. Run by jdbc_test.py: java JdbcTest <port>. Prints
// "ok <check>" per check; the first failure throws and exits non-zero.
// A DatabaseMetaData call whose catalog query Paceline refuses with 0A000
// prints "gap <call>: <message>" and the rest go on: jdbc_test.py compares
// those with the known gaps.
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

public class JdbcTest {
  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
    System.out.println("ok " + what);
  }

  interface MetaCheck {
    void run() throws SQLException;
  }

  // A metadata check whose query may still be unsupported (0A000).
  static void metadata(String what, MetaCheck check) throws SQLException {
    try {
      check.run();
    } catch (SQLException e) {
      if (!"0A000".equals(e.getSQLState())) throw e;
      System.out.println("gap " + what + ": " + e.getMessage().split("\n")[0]);
    }
  }

  static List<String> column(ResultSet rs, String name) throws SQLException {
    List<String> out = new ArrayList<>();
    while (rs.next()) out.add(rs.getString(name));
    rs.close();
    return out;
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/paceline";
    Properties props = new Properties();
    props.setProperty("user", "tester");
    props.setProperty("reWriteBatchedInserts", "true");
    try (Connection conn = DriverManager.getConnection(url, props)) {
      try (Statement s = conn.createStatement()) {
        s.execute("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10) NOT NULL, w_ytd NUMERIC(12,2) DEFAULT 0)");
        s.execute("CREATE TABLE district (d_w_id INT REFERENCES warehouse (w_id), d_id INT, d_next_o_id INT, "
            + "PRIMARY KEY (d_w_id, d_id))");
        s.execute("CREATE INDEX district_next ON district (d_next_o_id)");
      }
      DatabaseMetaData md = conn.getMetaData();
      check(md.getDatabaseProductName().equals("PostgreSQL"), "getDatabaseProductName");
      check(md.getDatabaseMajorVersion() == 15, "getDatabaseMajorVersion 15");
      check(conn.getSchema().equals("public"), "getSchema public");
      check(column(md.getTables(null, "public", "%", new String[] {"TABLE"}), "TABLE_NAME")
                .equals(List.of("district", "warehouse")), "getTables");
      check(column(md.getColumns(null, "public", "warehouse", "%"), "COLUMN_NAME")
                .equals(List.of("w_id", "w_name", "w_ytd")), "getColumns names");
      try (ResultSet rs = md.getColumns(null, "public", "warehouse", "w_name")) {
        check(rs.next() && rs.getInt("DATA_TYPE") == java.sql.Types.VARCHAR && rs.getInt("COLUMN_SIZE") == 10
                  && rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls, "getColumns type, size, nullability");
      }
      metadata("getPrimaryKeys", () -> check(
          column(md.getPrimaryKeys(null, "public", "district"), "COLUMN_NAME").equals(List.of("d_w_id", "d_id")),
          "getPrimaryKeys"));
      metadata("getImportedKeys", () -> {
        try (ResultSet rs = md.getImportedKeys(null, "public", "district")) {
          check(rs.next() && rs.getString("PKTABLE_NAME").equals("warehouse")
                    && rs.getString("PKCOLUMN_NAME").equals("w_id") && rs.getString("FKCOLUMN_NAME").equals("d_w_id")
                    && !rs.next(), "getImportedKeys");
        }
      });
      metadata("getIndexInfo", () -> {
        // One row per index column: unique indexes first, then by name and position.
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = md.getIndexInfo(null, "public", "district", false, false)) {
          while (rs.next()) {
            rows.add(rs.getString("INDEX_NAME") + " " + rs.getBoolean("NON_UNIQUE") + " " + rs.getShort("ORDINAL_POSITION")
                     + " " + rs.getString("COLUMN_NAME") + " " + rs.getString("ASC_OR_DESC"));
          }
        }
        check(rows.equals(List.of("district_pkey false 1 d_w_id A", "district_pkey false 2 d_id A",
                                  "district_next true 1 d_next_o_id A")), "getIndexInfo " + rows);
      });

      // Prepared statements (server-side after prepareThreshold uses) and a batch rewritten into one INSERT.
      try (PreparedStatement ins = conn.prepareStatement("INSERT INTO warehouse (w_id, w_name) VALUES (?, ?)")) {
        for (int i = 1; i <= 50; ++i) {
          ins.setInt(1, i);
          ins.setString(2, "w" + i);
          ins.addBatch();
        }
        ins.executeBatch();
      }
      try (PreparedStatement sel = conn.prepareStatement("SELECT w_name FROM warehouse WHERE w_id = ?")) {
        for (int i = 1; i <= 10; ++i) {
          sel.setInt(1, i);
          try (ResultSet rs = sel.executeQuery()) {
            check(rs.next() && rs.getString(1).equals("w" + i), "prepared select " + i);
          }
        }
      }

      // Transactions at SERIALIZABLE, autocommit off: commit and rollback.
      conn.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      conn.setAutoCommit(false);
      try (Statement s = conn.createStatement()) {
        s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd + 10 WHERE w_id = 1");
        conn.commit();
        s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd + 99 WHERE w_id = 1");
        conn.rollback();
        try (ResultSet rs = s.executeQuery("SELECT w_ytd FROM warehouse WHERE w_id = 1")) {
          check(rs.next() && rs.getBigDecimal(1).compareTo(new java.math.BigDecimal("10.00")) == 0,
              "commit kept, rollback undone");
        }
        conn.commit();
      }

      // A write-write conflict between two connections: one of them gets 40001 (OCC at commit, 2PL at the write).
      try (Connection other = DriverManager.getConnection(url, props)) {
        other.setAutoCommit(false);
        try (Statement a = conn.createStatement(); Statement b = other.createStatement()) {
          a.executeQuery("SELECT w_ytd FROM warehouse WHERE w_id = 2").close();
          b.executeUpdate("UPDATE warehouse SET w_ytd = 1 WHERE w_id = 2");
          String state = null;
          try {
            a.executeUpdate("UPDATE warehouse SET w_ytd = 2 WHERE w_id = 2");
            other.commit();
            conn.commit();
          } catch (SQLException e) {
            state = e.getSQLState();
          }
          conn.rollback();
          other.rollback();
          check("40001".equals(state), "conflict is 40001 (got " + state + ")");
        }
      }
    }
    System.out.println("all ok");
  }
}
