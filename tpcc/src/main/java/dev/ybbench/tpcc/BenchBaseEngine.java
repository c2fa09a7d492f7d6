package dev.ybbench.tpcc;

import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.interop.BenchBaseImport;
import dev.ybbench.tpcc.interop.TpccImport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;

/**
 * {@code --engine benchbase}: the same config, run by the user's BenchBase build against the same
 * target (the embedded server or --hosts), its results recorded as the run's phases. BenchBase
 * gets the config with the target's URL, user and password, the warehouses, terminals, works and
 * waits in effect here, and {@code -jh} so that each type's outcomes are known; it writes into
 * {@code benchbase/} in the run directory (its copy of the config holds no password), which is
 * then read as {@code --import} reads it.
 */
final class BenchBaseEngine implements TpccEngine {
  /**
   * The conditions on customers' money, which BenchBase's float arithmetic breaks by cents: it keeps
   * C_YTD_PAYMENT in a float column and adds Delivery's order-line amounts as a Java float.
   */
  private static final List<String> FLOAT_MONEY = List.of("3.3.2.10", "3.3.2.12");

  @Override
  public Tolerated tolerated() {
    return new Tolerated(FLOAT_MONEY, "BenchBase keeps C_YTD_PAYMENT in a float column and adds Delivery's "
        + "order-line amounts as a Java float, so its customers' money drifts by cents and " + String.join(" and ",
        FLOAT_MONEY) + " fail in its runs; recorded in summary.json, not held against the run");
  }

  private final Path home;

  BenchBaseEngine(Path home) {
    this.home = home;
  }

  @Override
  public String name() {
    return "benchbase";
  }

  @Override
  public boolean ownTerminals() {
    return false;
  }

  @Override
  public Map<String, Object> runInfo() {
    return Map.of("engine", Map.of("name", "BenchBase", "home", home.toString()));
  }

  @Override
  public TpccDatabase database(TpccDatabase config) {
    return config.forBenchBase();
  }

  /** BenchBase's database of its own, created when missing. */
  @Override
  public TpccDatabase open(TpccDatabase config, Consumer<String> log) {
    TpccDatabase db = database(config);
    db.endpoint().createDatabaseIfMissing(log);
    return db;
  }

  @Override
  public Map<String, PhaseResult> run(Run run, TpccPlan plan, SqlTarget target, TpccDatabase db, boolean create,
      boolean load, boolean execute) throws Exception {
    if (execute && !load) {
      db.requireLoaded(plan.range());
    }
    target.shareTables();
    return run(run, plan.config(), plan.works(), db.endpoint(), create, load, execute, plan.loaderThreadsGiven());
  }

  /** The BenchBase build: {@code --benchbase DIR}, else {@code BENCHBASE_HOME}; it must hold benchbase.jar. */
  static Path home(Path given) {
    String env = System.getenv("BENCHBASE_HOME");
    Path home = given != null ? given : env != null && !env.isBlank() ? Path.of(env) : null;
    if (home == null || !Files.isRegularFile(home.resolve("benchbase.jar"))) {
      throw new UserError((home == null ? "--engine benchbase needs a BenchBase build: --benchbase DIR (or "
          + "BENCHBASE_HOME)" : home + " holds no benchbase.jar") + "; build one with ./mvnw clean package -P postgres "
          + "in BenchBase's source and unpack target/benchbase-postgres.tgz");
    }
    return home.toAbsolutePath().normalize();
  }

  /**
   * Runs BenchBase's create, load and execute as asked, then records its works as the run's
   * phases; returns them (none without execute, or when interrupted).
   *
   * @param loaderThreads --loader-threads, or null for the config's
   */
  private Map<String, PhaseResult> run(Run run, TpccConfig config, List<TpccConfig.Work> works,
      YsqlEndpoint endpoint, boolean create, boolean load, boolean execute, Integer loaderThreads)
      throws IOException, InterruptedException {
    Path configFile = config.file();
    Path out = Files.createDirectories(run.directory().path().resolve("benchbase"));
    Path tmp = Files.createTempDirectory("ybbench-benchbase-", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    Path cfg = tmp.resolve(configFile.getFileName());
    try {
      Files.writeString(cfg, config(Files.readString(configFile), config, works, endpoint, loaderThreads));
      List<String> cmd = List.of(java(), "-jar", home.resolve("benchbase.jar").toString(), "-b", "tpcc", "-c",
          cfg.toString(), "--create=" + create, "--load=" + load, "--execute=" + execute, "-d", out.toString(), "-jh",
          out.resolve("histograms.json").toString());
      run.console().line("Running BenchBase (" + home + "): create " + create + ", load " + load + ", execute "
          + execute);
      Process p = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true).start();
      run.onStop(p::destroy);
      Deque<String> last = new ArrayDeque<>();
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          run.console().line("  benchbase| " + line);
          last.addLast(line);
          if (last.size() > 30) {
            last.removeFirst();
          }
        }
      }
      int rc = p.waitFor();
      if (run.interrupted()) {
        return Map.of();
      }
      if (rc != 0) {
        boolean oldJava = last.stream().anyMatch(l -> l.contains("UnsupportedClassVersionError"));
        throw new RunFailure(oldJava ? "BenchBase needs a newer Java than " + java() + " (its build targets Java 23): "
            + "set BENCHBASE_JAVA to a newer java" : "BenchBase exited with " + rc + ": " + lastError(last));
      }
    } finally {
      Files.deleteIfExists(cfg);  // it holds the password
      Files.deleteIfExists(tmp);
    }
    if (!execute) {
      return Map.of();
    }
    TpccImport.Imported r = BenchBaseImport.read(out);
    if (r.reason() != null) {
      throw new RunFailure(r.reason());
    }
    Map<String, PhaseResult> phases = r.phases(run.directory().latencyDir(), run.timeseries());
    for (Map.Entry<String, PhaseResult> phase : phases.entrySet()) {
      PhaseResult p = phase.getValue();
      run.console().line(String.format(Locale.ROOT, "BenchBase %s: %d transactions in %.1f s, %.1f tx/s, tpmC %.1f, "
          + "errors %d, retries %d", phase.getKey(), p.successes(), p.durationS(), p.throughputOps(),
          TpccFigures.of(p).tpmC() == null ? 0.0 : TpccFigures.of(p).tpmC(), p.errors(), p.retries()));
      run.record(phase.getKey(), p);
    }
    return phases;
  }

  /** The java that runs BenchBase: BENCHBASE_JAVA, else the one on the PATH. */
  private static String java() {
    String j = System.getenv("BENCHBASE_JAVA");
    return j != null && !j.isBlank() ? j : "java";
  }

  private static String lastError(Deque<String> lines) {
    List<String> l = new ArrayList<>(lines);
    for (int i = l.size() - 1; i >= 0; i--) {
      if (l.get(i).contains("ERROR") || l.get(i).contains("Exception")) {
        return l.get(i).strip();
      }
    }
    return l.isEmpty() ? "no output" : l.get(l.size() - 1).strip();
  }

  /**
   * The config as BenchBase should run it here: the target's URL (over PostgreSQL's driver, which
   * a BenchBase postgres build has; pgjdbc takes several hosts), user and password, and the
   * warehouses, terminals, works and waits in effect after the command line's overrides.
   */
  static String config(String xml, TpccConfig c, List<TpccConfig.Work> works, YsqlEndpoint endpoint,
      Integer loaderThreads) {
    String url = endpoint.url().replaceFirst("^jdbc:yugabytedb:", "jdbc:postgresql:");
    String out = element(xml, "type", "POSTGRES");
    out = element(out, "driver", "org.postgresql.Driver");
    out = element(out, "url", url);
    out = element(out, "username", endpoint.user());
    out = element(out, "password", endpoint.password());
    out = element(out, "scalefactor", Integer.toString(c.scaleFactor()));
    out = element(out, "terminals", Integer.toString(c.terminals()));
    if (loaderThreads != null) {
      out = element(out, "loaderThreads", loaderThreads.toString());
    }
    StringBuilder w = new StringBuilder("<works>");
    for (TpccConfig.Work work : works) {
      w.append("<work><warmup>").append(work.warmupSeconds()).append("</warmup><time>").append(work.timeSeconds())
          .append("</time><rate>").append(work.rate() == null ? "unlimited" : work.rate().toString())
          .append("</rate><weights>").append(String.join(",", work.weights().stream().map(String::valueOf).toList()))
          .append("</weights></work>");
    }
    out = block(out, "works", w.append("</works>").toString());
    StringBuilder t = new StringBuilder("<transactiontypes>");
    for (TpccConfig.TransactionType type : c.transactionTypes()) {
      t.append("<transactiontype><name>").append(type.name()).append("</name><preExecutionWait>")
          .append(type.preExecutionWaitMs()).append("</preExecutionWait><postExecutionWait>")
          .append(type.postExecutionWaitMs()).append("</postExecutionWait></transactiontype>");
    }
    return block(out, "transactiontypes", t.append("</transactiontypes>").toString());
  }

  /** {@code <name>value</name>} in place of the element, or added after {@code <parameters>}. */
  private static String element(String xml, String name, String value) {
    String e = "<" + name + ">" + escape(value) + "</" + name + ">";
    String pattern = "<" + name + ">[^<]*</" + name + ">|<" + name + "\\s*/>";
    if (xml.matches("(?s).*(" + pattern + ").*")) {
      return xml.replaceFirst(pattern, Matcher.quoteReplacement(e));
    }
    return xml.replaceFirst("<parameters>", Matcher.quoteReplacement("<parameters>\n    " + e));
  }

  private static String block(String xml, String name, String replacement) {
    return xml.replaceFirst("(?s)<" + name + ">.*</" + name + ">", Matcher.quoteReplacement(replacement));
  }

  private static String escape(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
