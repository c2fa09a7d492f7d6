package dev.ybbench.pgbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Plan;
import dev.ybbench.harness.cli.Packages;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.harness.server.YugabyteView;
import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./run_pgbench.sh [pgbench's options] [DBNAME]}: server, tables, pgbench's run, results. */
@Command(name = "run_pgbench.sh", sortOptions = false, usageHelpAutoWidth = true,
    resourceBundle = "dev.ybbench.pgbench.PgbenchCommand",
    description = {"Runs pgbench — the real one (Debian's), or YugabyteDB's ysql_bench (--pgbench-binary) — with "
        + "its own options, prints its report as it prints it, and records the run: every transaction's latency "
        + "from pgbench's own log, per script and per second, audited against the server's statements: "
        + "results/<UTC time>_pgbench_<scripts>_<product>-<version>/ (see results/README.md). With no --hosts (or "
        + "-h) it starts an embedded PostgreSQL, initializes its tables and stops it afterwards.", ""},
    footer = {"", "Examples:",
        "  ./run_pgbench.sh -b tpcb-like -c 8 -j 2 -T 30",
        "  ./run_pgbench.sh -i -s 10 --hosts 10.0.0.1:5432",
        "  ./run_pgbench.sh -S -M prepared -c 16 -j 2 -T 60 --hosts 10.0.0.1:5432",
        "  ./run_pgbench.sh -b simple-update@2 -b select-only@8 -c 4 -T 30 -R 500 -L 50",
        "  ./run_pgbench.sh -h 10.0.0.1 -p 5433 -U yugabyte -c 8 -T 30 --max-tries 10 yugabyte"})
final class PgbenchCommand implements BenchmarkCommand {
  @Mixin
  PgbenchOptions o = new PgbenchOptions();

  @Option(names = {"-?", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Override
  public RunOptions output() {
    return o.run;
  }

  @Override
  public MergeOptions merging() {
    return o.merging;
  }

  @Override
  public void checkMerge() {
    List<String> given = new ArrayList<>(PgbenchPlan.pgbenchOptions(o));
    if (o.run.dryRun) {
      given.add("--dry-run");
    }
    if (!given.isEmpty()) {
      throw new UserError("--merge joins runs already made: give only the run directories (and --results-dir), not "
          + String.join(" ", given));
    }
  }

  @Override
  public Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    if (includeIncomplete) {
      throw new UserError("--include-incomplete: pgbench's clients share one run of the tables, so a merge of some of "
          + "them stands for less than ran; give every client's run");
    }
    if (runs.size() < 2) {
      throw new UserError("--merge adds up the runs of --clients: give each client's run, at least two");
    }
    return PgbenchMerge.merge(runs, resultsRoot, warn, stop);
  }

  @Override
  public boolean audit(Path merged, Consumer<String> out) throws IOException {
    return PgbenchMerge.audit(merged, out);
  }

  @Override
  public Plan plan(Context context) {
    return new Planned(PgbenchPlan.of(o), o.run, o.fleet);
  }

  /** The plan as the runner takes it; pgbench is installed, where missing, before the run starts. */
  private static final class Planned implements Plan {
    private PgbenchPlan plan;
    private final RunOptions run;
    private final FleetOptions fleet;
    private SqlTarget target;
    private Integer scale;

    Planned(PgbenchPlan plan, RunOptions run, FleetOptions fleet) {
      this.plan = plan;
      this.run = run;
      this.fleet = fleet;
    }

    @Override
    public Outline outline() {
      return plan.outline(YugabyteView.planned(plan.server(), run.metricsPorts()));
    }

    @Override
    public Map<String, String> settings() {
      return plan.settings();
    }

    @Override
    public void prepare(Consumer<String> log) {
      if (plan.binary() == PgbenchBinary.TO_INSTALL) {
        Packages.install(PgbenchBinary.PACKAGE, log);
        plan = plan.withBinary(PgbenchBinary.find(null, System.getenv("PATH"))); // or one line saying how to get it
      }
    }

    @Override
    public String workload() {
      return plan.workload();
    }

    @Override
    public RunOptions output() {
      return run;
    }

    @Override
    public Map<String, String> parameters() {
      // The scale the run has: -i's or -s's, which initialize the tables at it, else the tables' own.
      return plan.parameters(target.endpoint(), plan.initialize() || plan.scaleGiven() || scale == null
          ? Integer.valueOf(plan.scale()) : scale);
    }

    @Override
    public Map<String, Object> extra() {
      Map<String, Object> extra = new LinkedHashMap<>();
      extra.put("engine", Map.of("name", plan.binary().name(), "version", plan.binary().version(),
          "path", plan.binary().path().toString()));
      if (fleet.inFleet()) {
        extra.put("fleet", fleet.runJson());
      }
      return extra;
    }

    @Override
    public RunLifecycle.Target open(Consumer<String> log) {
      // The tables are created and dropped together: pgbench_accounts stands for them all.
      target = SqlTarget.open(plan.endpoint(), plan.server(), plan.sessions() + 20, plan.tables().get(0),
          plan.mayRecreate(), log);
      try {
        if (plan.mayRecreate()) {
          plan.checkInitOn(target.server());
        }
        scale = plan.initialize() ? null : PgbenchPhases.scale(target, plan);
      } catch (SQLException e) {
        target.close();
        throw target.endpoint().connectError(e);
      } catch (RuntimeException e) {
        target.close();
        throw e;
      }
      return target;
    }

    @Override
    public void run(Run r) throws Exception {
      PgbenchPhases.run(r, plan, target, scale);
    }
  }
}
