package dev.ybbench.analysis.history;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The history of runs: one row per run and phase in {@code ybbench_result} (its key, what ran,
 * where, the headline figures, the run's files as JSON and the path of its directory) and one per
 * operation in {@code ybbench_operation}, in an SQLite file (the default: nothing to set up, kept
 * between CI runners as a file) or a PostgreSQL database a team shares ({@code postgresql://…}).
 * The schema is created when missing and documented in docs/history.md, where Apache Otava's
 * configuration for it is given. A run is written in one transaction: a writer killed halfway
 * leaves nothing of that run, and two writers at once (a fleet's clients) wait for each other
 * ({@link #BUSY_TIMEOUT_MS}) instead of failing.
 */
public final class HistoryStore implements AutoCloseable {
  /** How long a writer waits for another's transaction on an SQLite file before giving up. */
  static final int BUSY_TIMEOUT_MS = 60_000;

  /** The two kinds of store; they differ in how a time is kept (Otava needs PostgreSQL's timestamptz). */
  enum Kind {
    SQLITE("TEXT"), POSTGRESQL("TIMESTAMPTZ");

    final String timeType;

    Kind(String timeType) {
      this.timeType = timeType;
    }
  }

  /**
   * One operation of a phase.
   *
   * @param p50Us … p999Us the percentiles of summary.json (null when the run had no latency for it)
   */
  public record Operation(String name, double throughputOps, long successes, long errors, long aborts, long retries,
      Long p50Us, Long p95Us, Long p99Us, Long p999Us) {}

  /**
   * One run's phase (a TPC-C run's later works are phases of their own: execute-2 …).
   *
   * @param key          what must be equal for two runs to be the same configuration: bench, workload,
   *                     parameters, the server's product and number of nodes (not its version: a key's
   *                     history runs over builds), e.g. "ycsb/workloadc@3f2a9c1b04"
   * @param config       the key's parts as JSON, for reading what a key is
   * @param headline     the metric that gates (throughput; tpmC for TPC-C), named by {@code headlineMetric}
   * @param resultsPath  where the run's directory was when it was recorded
   * @param runJson      run.json; {@code summaryJson} summary.json; {@code noiseJson} each metric's own noise
   *                     as the comparison reads it from the run's seconds, so that a run whose directory
   *                     is gone is still compared as it was
   */
  public record Entry(String runId, String phase, String key, String bench, String workload, Instant started,
      Instant ended, String state, String reason, String label, String serverProduct, String serverVersion,
      int serverNodes, boolean embedded, String clientHost, Integer clientCores, String jdk, String harnessRevision,
      String headlineMetric, Double headline, double throughputOps, long successes, long errors, long aborts,
      long retries, double durationS, String resultsPath, String config, String runJson, String summaryJson,
      String noiseJson, List<Operation> operations) {
    public Client client() {
      return new Client(clientHost, clientCores, jdk);
    }
  }

  /**
   * The client machine a run ran on, as compare.sh requires it equal for two sides: its host name,
   * cores and JDK.
   */
  public record Client(String host, Integer cores, String jdk) {
    /** Equal in every part either says (results that do not record a part pass it). */
    public boolean matches(Client o) {
      return same(host, o.host) && same(cores, o.cores) && same(jdk, o.jdk);
    }

    private static boolean same(Object a, Object b) {
      return a == null || b == null || a.equals(b);
    }
  }

  private final Connection connection;
  private final Kind kind;
  private final String shown;

  private HistoryStore(Connection connection, Kind kind, String shown) {
    this.connection = connection;
    this.kind = kind;
    this.shown = shown;
  }

  /**
   * Opens (and creates, when missing) the history at {@code where}: a PostgreSQL URL
   * ({@code postgresql://user:password@host:5432/db}, {@code postgres://…} or {@code jdbc:postgresql:…}),
   * else the path of an SQLite file. A history that cannot be opened is a {@link UserError} naming
   * it, its password hidden.
   */
  public static HistoryStore open(String where) {
    if (where == null || where.isBlank()) {
      throw new UserError("--history needs a file (e.g. results/history.db) or a postgresql:// URL");
    }
    String shown = redact(where);
    try {
      if (isPostgres(where)) {
        Object[] url = postgres(where);
        Connection c = DriverManager.getConnection((String) url[0], (Properties) url[1]);
        return ready(new HistoryStore(c, Kind.POSTGRESQL, shown));
      }
      Path file = Path.of(where).toAbsolutePath();
      if (Files.isDirectory(file)) {
        throw new UserError("--history " + where + " is a directory; name a file in it, e.g. " + Path.of(where)
            .resolve("history.db"));
      }
      try {
        Files.createDirectories(file.getParent());
      } catch (java.nio.file.FileSystemException e) {
        throw new UserError("Cannot create the history " + shown + ": its directory " + e.getFile() + " cannot be "
            + "made (" + dev.ybbench.harness.ErrorText.whyNot(e) + "); name a file in a directory you can write");
      }
      Properties p = new Properties();
      // WAL: readers never wait for a writer; IMMEDIATE: a transaction takes the write lock when it
      // begins, so two writers queue on the busy timeout instead of one failing on lock upgrade.
      p.setProperty("journal_mode", "WAL");
      p.setProperty("busy_timeout", String.valueOf(BUSY_TIMEOUT_MS));
      p.setProperty("transaction_mode", "IMMEDIATE");
      p.setProperty("foreign_keys", "true");
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, p);
      return ready(new HistoryStore(c, Kind.SQLITE, shown));
    } catch (SQLException | java.io.IOException | IllegalArgumentException e) {
      throw new UserError("Cannot open the history " + shown + ": " + redact(ErrorText.firstLine(e)));
    }
  }

  /**
   * What a dry run checks of a history, opening nothing: a postgresql:// URL that parses, or a
   * file that is one or could be created.
   */
  public static void checkForm(String where) {
    if (where == null || where.isBlank()) {
      throw new UserError("--history needs a file (e.g. results/history.db) or a postgresql:// URL");
    }
    if (isPostgres(where)) {
      try {
        postgres(where);
      } catch (IllegalArgumentException e) {
        throw new UserError("Cannot open the history " + redact(where) + ": " + e.getMessage());
      }
      return;
    }
    Path file = Path.of(where).toAbsolutePath();
    Path there = file;
    while (there != null && !Files.exists(there)) {
      there = there.getParent();
    }
    boolean ok = there != null && (there.equals(file) ? Files.isRegularFile(there) && Files.isWritable(there)
        : Files.isDirectory(there) && RunDirectory.writable(there));
    if (!ok) {
      throw new UserError("Cannot open the history " + where + ": " + (there != null && there.equals(file)
          && Files.isDirectory(there) ? "it is a directory" : "it cannot be written")
          + "; give a file (e.g. results/history.db) or a postgresql:// URL");
    }
  }

  static boolean isPostgres(String where) {
    return where.startsWith("postgresql://") || where.startsWith("postgres://") || where.startsWith("jdbc:postgresql:");
  }

  /** {jdbc URL, properties}: a libpq-style URL's user and password become properties pgjdbc reads. */
  private static Object[] postgres(String where) {
    Properties p = new Properties();
    if (where.startsWith("jdbc:")) {
      return new Object[] {where, p};
    }
    try {
      URI u = new URI(where);
      if (u.getRawUserInfo() != null) {
        String[] up = u.getRawUserInfo().split(":", 2);
        p.setProperty("user", URLDecoder.decode(up[0], StandardCharsets.UTF_8));
        if (up.length == 2) {
          p.setProperty("password", URLDecoder.decode(up[1], StandardCharsets.UTF_8));
        }
      }
      String hostPort = u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "");
      return new Object[] {"jdbc:postgresql://" + hostPort + (u.getRawPath() == null ? "/" : u.getRawPath())
          + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()), p};
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL (" + e.getReason() + ")");
    }
  }

  /** The history as it may be printed: a URL's password replaced by ***. */
  public static String redact(String where) {
    return RunInfo.redactInline(where);
  }

  /** What this history is, as printed (its password hidden). */
  public String shown() {
    return shown;
  }

  private static HistoryStore ready(HistoryStore s) throws SQLException {
    try (Statement st = s.connection.createStatement()) {
      s.connection.setAutoCommit(false);
      for (String ddl : schema(s.kind)) {
        st.execute(ddl);
      }
      s.connection.commit();
    } catch (SQLException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /** The tables, created when missing (docs/history.md describes every column). */
  static List<String> schema(Kind kind) {
    String time = kind.timeType;
    return List.of("""
        CREATE TABLE IF NOT EXISTS ybbench_result (
          run_id TEXT NOT NULL,
          phase TEXT NOT NULL,
          key TEXT NOT NULL,
          bench TEXT NOT NULL,
          workload TEXT NOT NULL,
          started %1$s NOT NULL,
          ended %1$s,
          state TEXT NOT NULL,
          reason TEXT,
          label TEXT,
          server_product TEXT NOT NULL,
          server_version TEXT NOT NULL,
          server_nodes INTEGER NOT NULL,
          embedded BOOLEAN NOT NULL,
          client_host TEXT,
          client_cores INTEGER,
          jdk TEXT,
          harness_revision TEXT,
          headline_metric TEXT,
          headline DOUBLE PRECISION,
          throughput_ops DOUBLE PRECISION NOT NULL,
          successes BIGINT NOT NULL,
          errors BIGINT NOT NULL,
          aborts BIGINT NOT NULL,
          retries BIGINT NOT NULL,
          duration_s DOUBLE PRECISION NOT NULL,
          results_path TEXT,
          config TEXT NOT NULL,
          run_json TEXT NOT NULL,
          summary_json TEXT NOT NULL,
          noise_json TEXT NOT NULL,
          recorded %1$s NOT NULL,
          PRIMARY KEY (run_id, phase))""".formatted(time),
        "CREATE INDEX IF NOT EXISTS ybbench_result_by_key ON ybbench_result (key, started)",
        """
        CREATE TABLE IF NOT EXISTS ybbench_operation (
          run_id TEXT NOT NULL,
          phase TEXT NOT NULL,
          operation TEXT NOT NULL,
          throughput_ops DOUBLE PRECISION NOT NULL,
          successes BIGINT NOT NULL,
          errors BIGINT NOT NULL,
          aborts BIGINT NOT NULL,
          retries BIGINT NOT NULL,
          p50_us BIGINT,
          p95_us BIGINT,
          p99_us BIGINT,
          p999_us BIGINT,
          PRIMARY KEY (run_id, phase, operation),
          FOREIGN KEY (run_id, phase) REFERENCES ybbench_result (run_id, phase))""");
  }

  private static final String[] RESULT_COLUMNS = {"run_id", "phase", "key", "bench", "workload", "started", "ended",
      "state", "reason", "label", "server_product", "server_version", "server_nodes", "embedded", "client_host",
      "client_cores", "jdk", "harness_revision", "headline_metric", "headline", "throughput_ops", "successes", "errors",
      "aborts", "retries", "duration_s", "results_path", "config", "run_json", "summary_json", "noise_json",
      "recorded"};

  /**
   * Writes a run's phases in one transaction; a phase already there (the same run imported again)
   * is left as it is.
   *
   * @return how many phases were new
   */
  public int record(List<Entry> entries) {
    String insert = "INSERT INTO ybbench_result (" + String.join(", ", RESULT_COLUMNS) + ") VALUES ("
        + "?, ".repeat(RESULT_COLUMNS.length - 1) + "?) ON CONFLICT (run_id, phase) DO NOTHING";
    String op = "INSERT INTO ybbench_operation (run_id, phase, operation, throughput_ops, successes, errors, aborts, "
        + "retries, p50_us, p95_us, p99_us, p999_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        + "ON CONFLICT (run_id, phase, operation) DO NOTHING";
    try (PreparedStatement r = connection.prepareStatement(insert);
        PreparedStatement o = connection.prepareStatement(op)) {
      int added = 0;
      Instant now = Instant.now();
      for (Entry e : entries) {
        Object[] v = {e.runId(), e.phase(), e.key(), e.bench(), e.workload(), e.started(), e.ended(), e.state(),
            e.reason(), e.label(), e.serverProduct(), e.serverVersion(), e.serverNodes(), e.embedded(),
            e.clientHost(), e.clientCores(), e.jdk(), e.harnessRevision(), e.headlineMetric(), e.headline(),
            e.throughputOps(), e.successes(), e.errors(), e.aborts(), e.retries(), e.durationS(), e.resultsPath(),
            e.config(), e.runJson(), e.summaryJson(), e.noiseJson(), now};
        for (int i = 0; i < v.length; i++) {
          bind(r, i + 1, v[i]);
        }
        int n = r.executeUpdate();
        added += n;
        if (n == 0) {
          continue;
        }
        for (Operation x : e.operations()) {
          Object[] w = {e.runId(), e.phase(), x.name(), x.throughputOps(), x.successes(), x.errors(), x.aborts(),
              x.retries(), x.p50Us(), x.p95Us(), x.p99Us(), x.p999Us()};
          for (int i = 0; i < w.length; i++) {
            bind(o, i + 1, w[i]);
          }
          o.executeUpdate();
        }
      }
      connection.commit();
      return added;
    } catch (SQLException e) {
      rollback();
      throw new UserError("Cannot record into the history " + shown + ": " + redact(ErrorText.firstLine(e)));
    }
  }

  private void bind(PreparedStatement s, int i, Object v) throws SQLException {
    if (v == null) {
      s.setNull(i, Types.NULL);
    } else if (v instanceof Instant t) {
      if (kind == Kind.POSTGRESQL) {
        s.setObject(i, t.atOffset(java.time.ZoneOffset.UTC));
      } else {
        s.setString(i, t.toString());
      }
    } else if (v instanceof Boolean b) {
      s.setBoolean(i, b);
    } else {
      s.setObject(i, v);
    }
  }

  /** A key's runs, in the order they started, the operations' figures left out. */
  public List<Entry> entries(String key) {
    return query("WHERE key = ? ORDER BY started, run_id, phase", key);
  }

  /** One run's phases. */
  public List<Entry> run(String runId) {
    return query("WHERE run_id = ? ORDER BY phase", runId);
  }

  /** Every key with its workload and how many runs it has, most recent first. */
  public Map<String, List<Entry>> keys() {
    Map<String, List<Entry>> m = new LinkedHashMap<>();
    for (Entry e : query("ORDER BY key, started, run_id, phase")) {
      m.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
    }
    return m;
  }

  private List<Entry> query(String where, String... args) {
    String sql = "SELECT " + String.join(", ", RESULT_COLUMNS) + " FROM ybbench_result " + where;
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        s.setString(i + 1, args[i]);
      }
      List<Entry> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(new Entry(rs.getString("run_id"), rs.getString("phase"), rs.getString("key"), rs.getString("bench"),
              rs.getString("workload"), time(rs, "started"), time(rs, "ended"), rs.getString("state"),
              rs.getString("reason"), rs.getString("label"), rs.getString("server_product"),
              rs.getString("server_version"), rs.getInt("server_nodes"), rs.getBoolean("embedded"),
              rs.getString("client_host"), (Integer) nullable(rs, rs.getInt("client_cores")), rs.getString("jdk"),
              rs.getString("harness_revision"), rs.getString("headline_metric"),
              (Double) nullable(rs, rs.getDouble("headline")), rs.getDouble("throughput_ops"),
              rs.getLong("successes"), rs.getLong("errors"), rs.getLong("aborts"), rs.getLong("retries"),
              rs.getDouble("duration_s"), rs.getString("results_path"), rs.getString("config"),
              rs.getString("run_json"), rs.getString("summary_json"), rs.getString("noise_json"), List.of()));
        }
      }
      connection.commit();
      return out;
    } catch (SQLException e) {
      rollback();
      throw new UserError("Cannot read the history " + shown + ": " + redact(ErrorText.firstLine(e)));
    }
  }

  private static Object nullable(ResultSet rs, Object v) throws SQLException {
    return rs.wasNull() ? null : v;
  }

  private Instant time(ResultSet rs, String column) throws SQLException {
    if (kind == Kind.POSTGRESQL) {
      Timestamp t = rs.getTimestamp(column);
      return t == null ? null : t.toInstant();
    }
    String s = rs.getString(column);
    return s == null ? null : Instant.parse(s);
  }

  private void rollback() {
    try {
      connection.rollback();
    } catch (SQLException ignored) {
      // the connection is gone; the transaction went with it
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing was left to write
    }
  }
}
