package dev.ybbench.sysbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Plan;
import dev.ybbench.harness.server.YugabyteView;
import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.sysbench.core.SysbenchSchema;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.Packages;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import dev.ybbench.sysbench.interop.SysbenchCommandLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./run_sysbench.sh TEST [COMMAND] [options]}: server, tables, sysbench's run, results. */
@Command(name = "run_sysbench.sh", sortOptions = false, usageHelpAutoWidth = true,
    resourceBundle = "dev.ybbench.sysbench.SysbenchCommand",
    description = {"Runs one of sysbench's OLTP tests with the real sysbench (Debian's package, its pgsql driver) "
        + "over YSQL. ybbench creates and loads the tables sbtest1 … sbtestN itself (hash or range keys, pre-split "
        + "on YugabyteDB), runs sysbench, prints its report as sysbench prints it, and records it as a run: "
        + "results/<UTC time>_sysbench_<test>_<product>-<version>/ (see results/README.md). With no --hosts it "
        + "starts an embedded PostgreSQL and stops it afterwards. sysbench's own command line is taken too.", ""},
    footer = {"", "Examples:",
        "  ./run_sysbench.sh oltp_read_only",
        "  ./run_sysbench.sh oltp_read_write --tables 10 --table-size 100000 --threads 16 --duration 60",
        "  ./run_sysbench.sh oltp_point_select --hosts 10.0.0.1 --layout range --tablets 24",
        "  ./run_sysbench.sh oltp_read_only run --hosts 10.0.0.1 --clients 2   # on each of 2 machines, then:",
        "  ./run_sysbench.sh --merge results/<client 1 run> results/<client 2 run>",
        "  ./run_sysbench.sh sysbench oltp_read_only --db-driver=pgsql --pgsql-host=10.0.0.1 --pgsql-port=5433 "
            + "--tables=10 --table-size=100000 --threads=16 --time=60 run"})
final class SysbenchCommand implements BenchmarkCommand {
  @Mixin
  SysbenchOptions o = new SysbenchOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Override
  public RunOptions output() {
    return o.run;
  }

  @Override
  public MergeOptions merging() {
    return o.merging;
  }

  /** sysbench's own command line in run_sysbench.sh's flags (a sysbench-style --flag=value of ours is kept). */
  @Override
  public Translation translate(List<String> given, Consumer<String> console) {
    SysbenchCommandLine.Translation t = SysbenchCommandLine.translate(given.toArray(String[]::new),
        Runner.flags(new SysbenchCommand()));
    return Translation.said(t.dialect(), t.args(), t.notes(), new Sysbench().script(), console);
  }

  @Override
  public void checkMerge() {
    if (o.test != null || o.run.dryRun) {
      throw new UserError("--merge joins runs already made: give only the run directories (and --results-dir), not "
          + (o.test != null ? "a test" : "--dry-run"));
    }
  }

  @Override
  public Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    if (includeIncomplete) {
      throw new UserError("--include-incomplete: sysbench's clients share one run of the tables, so a merge of some "
          + "of them stands for less than ran; give every client's run");
    }
    if (runs.size() < 2) {
      throw new UserError("--merge adds up the runs of --clients: give each client's run, at least two");
    }
    return SysbenchMerge.merge(runs, resultsRoot, warn, stop);
  }

  @Override
  public boolean audit(Path merged, Consumer<String> out) throws IOException {
    return SysbenchMerge.audit(merged, out);
  }

  @Override
  public Plan plan(Context context) {
    return new Planned(SysbenchPlan.of(o), o.run, o.fleet);
  }

  /** The plan as the runner takes it; sysbench is installed, where missing, before the run starts. */
  private static final class Planned implements Plan {
    private SysbenchPlan plan;
    private final RunOptions run;
    private final FleetOptions fleet;
    private SqlTarget target;

    Planned(SysbenchPlan plan, RunOptions run, FleetOptions fleet) {
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
      if (plan.binary() == SysbenchBinary.TO_INSTALL) {
        Packages.install(SysbenchBinary.PACKAGE, log);
        plan = plan.withBinary(SysbenchBinary.find(null, System.getenv("PATH"))); // or one line saying how to get it
      }
    }

    @Override
    public String workload() {
      return plan.test().name();
    }

    @Override
    public RunOptions output() {
      return run;
    }

    @Override
    public Map<String, String> parameters() {
      return plan.parameters(target.endpoint());
    }

    @Override
    public Map<String, Object> extra() {
      Map<String, Object> extra = new LinkedHashMap<>();
      extra.put("engine", Map.of("name", "sysbench", "version", plan.binary().version(),
          "path", plan.binary().path().toString()));
      if (fleet.inFleet()) {
        extra.put("fleet", fleet.runJson());
      }
      return extra;
    }

    @Override
    public RunLifecycle.Target open(Consumer<String> log) {
      // The tables are created and dropped together: sbtest1 stands for them all.
      target = SqlTarget.open(plan.endpoint(), plan.server(), plan.threads() + 20, SysbenchSchema.table(1),
          plan.mayRecreate(), log);
      return target;
    }

    @Override
    public void run(Run r) throws Exception {
      SysbenchPhases.run(r, plan, target);
    }
  }
}
