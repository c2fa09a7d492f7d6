package dev.ybbench.harness.compare;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.server.StatementPlans;
import dev.ybbench.harness.server.ServerView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Where a change lives: the layers every run records beside its figures — which operation (or
 * transaction type) got slower, the server's time and CPU per operation and per statement
 * (pg_stat_statements: mean time, calls, rows and blocks per call), each node's latency, the
 * client's CPU per operation and busy share, retries and errors by class — compared with the same
 * statistics as the headline (per-run values, paired by round, intervals; Benjamini–Hochberg
 * within each metric asked of many statements or nodes), and each statement's plan shape compared
 * between the sides ({@link StatementPlans}).
 *
 * <p>A layer is named as a cause when it got worse by the threshold with its q-value at most
 * 5 %: the server when its time or CPU per operation, a statement's mean time, or a plan did; the
 * client when its CPU per operation got worse while it was busy (above
 * {@link PhaseResult.ClientSide#BUSY_WARNING_PCT} % of its cores) — a client waiting on a slower
 * server spends its fixed costs over fewer operations without being the bottleneck — or when its
 * busy share rose above {@link #CLIENT_BUSY_CAUSE_PCT} % (a starved client keeps its cost per
 * operation but runs out of CPU); conflicts when retries or errors of a class rose by
 * {@link Comparison#ERROR_MARGIN_PP} points of the operations. A layer shown within ± the
 * threshold by two one-sided tests is "unchanged".
 */
final class Where {
  /** What a layer row shows. */
  enum Finding {
    WORSE("worse"), BETTER("better"), UNCHANGED("unchanged"), UNCLEAR("unclear"),
    /** One run a side without spread: the point change only. */
    UNTESTED("untested");

    private final String label;

    Finding(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * One layer metric of a workload.
   *
   * @param layer  operation, server, statement, node, client or conflicts
   * @param item   what within the layer (a statement's text, a node's address), or ""
   * @param metric e.g. "time per op (µs)"
   * @param share  for a statement's time per op, its part of the change of the server's time per
   *               op (−1 … 1 and beyond), else NaN
   */
  record Layer(String layer, String item, String metric, Statistics.Change change, double q, Finding finding,
      double share) {}

  /**
   * A statement whose plan shape differs between the sides; {@code timeMoved} when the
   * statement's server time changed detectably with it (a plan that flipped while its statement
   * took as long — statistics that moved between runs — is no cause), {@code share} its
   * statement's part of the change of the server's time per op (NaN when not known).
   */
  record PlanChange(String statement, String baseline, String candidate, boolean timeMoved, double share) {}

  /**
   * A workload's layers, its plan changes, and the clause naming what changed; {@code named} when
   * the clause names a cause (worth a line even beside a headline of no change).
   */
  record Workload(List<Layer> layers, List<PlanChange> plans, String plansNote, String clause, boolean named) {}

  private Where() {}

  private static final String SERVER_TIME = "server time per op (µs)";
  private static final String STATEMENT_TIME = "time per op (µs)";
  private static final String STATEMENT_MEAN = "mean (µs)";
  private static final String SERVER_P99 = "server p99 (µs)";
  private static final String CLIENT_CPU = "client CPU per op (µs)";
  private static final String CLIENT_BUSY = "client busy (% of its cores)";
  private static final String RETRIES = "retries (% of ops)";
  /** The median, not the mean: a few operations held up behind locks move a mean by tens of per cent. */
  private static final String P50_LATENCY = "p50 latency (µs)";
  /** The comparison's row it comes from. */
  private static final String P50 = "p50 (µs)";

  /** A metric's value in one run, or null when the run did not record it. */
  private record Measure(String layer, String item, String metric, Statistics.Scale scale,
      Function<Side.Run, Double> value) {}

  /**
   * @param rows the workload's rows of the comparison's table: each operation's p50 comes from
   *             there, with each run's own noise (per-second blocks) behind its interval
   */
  static Workload of(List<Side.Run> b, List<Side.Run> c, boolean paired, double thresholdPct,
      List<Comparison.Row> rows) {
    List<Measure> measures = measures(b, c);
    List<Layer> raw = new ArrayList<>();
    // Which operations (transaction types) got slower: what a server-side change reached.
    long operations = rows.stream().map(Comparison.Row::operation).filter(op -> !op.equals("ALL")).distinct().count();
    for (Comparison.Row r : rows) {
      if (operations > 1 && r.metric().equals(P50) && r.note() == null) {
        raw.add(new Layer("operation", r.operation(), P50_LATENCY, r.change(), Double.NaN, null, Double.NaN));
      }
    }
    for (Measure m : measures) {
      List<Statistics.Sample> sb = new ArrayList<>();
      List<Statistics.Sample> sc = new ArrayList<>();
      for (Side.Run r : b) {
        Double v = m.value().apply(r);
        if (v != null) {
          sb.add(Statistics.Sample.of(v));
        }
      }
      for (Side.Run r : c) {
        Double v = m.value().apply(r);
        if (v != null) {
          sc.add(Statistics.Sample.of(v));
        }
      }
      if (sb.isEmpty() || sc.isEmpty()) {
        continue;
      }
      boolean pairs = paired && sb.size() == b.size() && sc.size() == c.size();
      Statistics.Change ch = Statistics.change(sb, sc, pairs, m.scale(), 0.95);
      raw.add(new Layer(m.layer(), m.item(), m.metric(), ch, Double.NaN, null, Double.NaN));
    }
    Map<String, String> shapesB = shapes(b);
    Map<String, String> shapesC = shapes(c);
    Map<String, String> changedShapes = new LinkedHashMap<>();
    shapesB.forEach((q, shape) -> {
      String other = shapesC.get(q);
      if (other != null && !StatementPlans.fingerprint(other).equals(StatementPlans.fingerprint(shape))) {
        changedShapes.put(q, shape);
      }
    });
    Set<String> replanned = changedShapes.keySet();
    double[] q = qValues(raw, replanned);
    double totalDelta = delta(raw, "server", SERVER_TIME);
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      Layer l = raw.get(i);
      double share = l.layer().equals("statement") && l.metric().equals(STATEMENT_TIME) && totalDelta != 0
          ? (l.change().candidate() - l.change().baseline()) / totalDelta : Double.NaN;
      layers.add(new Layer(l.layer(), l.item(), l.metric(), l.change(), q[i], finding(l.change(), q[i],
          thresholdPct), share));
    }
    // Statements ranked by their share of the server's change, each statement's rows together.
    Map<String, Double> shareOf = new LinkedHashMap<>();
    layers.stream().filter(l -> !Double.isNaN(l.share())).forEach(l -> shareOf.put(l.item(), Math.abs(l.share())));
    layers.sort(Comparator.comparingInt((Layer l) -> ORDER.indexOf(l.layer()))
        .thenComparing(l -> -shareOf.getOrDefault(l.item(), 0.0)).thenComparing(Layer::item));
    List<PlanChange> plans = planChanges(changedShapes, shapesC, layers, thresholdPct);
    String plansNote = plansNote(b, c, shapesB, shapesC);
    Map<String, List<String>> issuedBy = new LinkedHashMap<>();
    for (Side.Run r : all(b, c)) {
      statements(r).stream().filter(st -> st.operations() != null).forEach(st -> issuedBy.putIfAbsent(st.query(),
          st.operations()));
    }
    List<String> causes = causes(layers, plans, c, issuedBy);
    return new Workload(layers, plans, plansNote, clause(causes, layers, c, unrecorded(b, c)), !causes.isEmpty());
  }

  private static List<Side.Run> all(List<Side.Run> b, List<Side.Run> c) {
    List<Side.Run> all = new ArrayList<>(b);
    all.addAll(c);
    return all;
  }

  private static final List<String> ORDER = List.of("operation", "server", "statement", "node", "client",
      "conflicts");

  /**
   * Benjamini–Hochberg q-values within each family of rows that ask the same question of many
   * items — one metric across the statements (or nodes) — so that thirty statements' means do not
   * make one of them slower by chance; a metric asked once (the server's time per operation, the
   * client's CPU) is its own family and keeps its p-value. The statements whose plan changed are a
   * family of their own: the plan is known apart from the timings, so singling them out costs no
   * error rate, and a slower statement among thirty is not lost in the other twenty-nine.
   */
  private static double[] qValues(List<Layer> rows, Set<String> replanned) {
    double[] q = new double[rows.size()];
    Map<String, List<Integer>> families = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Layer l = rows.get(i);
      String family = l.layer() + "/" + l.metric() + (l.layer().equals("statement") && replanned.contains(l.item())
          ? "/plan changed" : "");
      families.computeIfAbsent(family, k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> family : families.values()) {
      double[] fq = Statistics.benjaminiHochberg(family.stream().mapToDouble(i -> rows.get(i).change().p())
          .toArray());
      for (int k = 0; k < family.size(); k++) {
        q[family.get(k)] = fq[k];
      }
    }
    return q;
  }

  /** The change of a metric's mean in its own units (candidate − baseline), 0 when not there. */
  private static double delta(List<Layer> layers, String layer, String metric) {
    return layers.stream().filter(l -> l.layer().equals(layer) && l.metric().equals(metric))
        .mapToDouble(l -> l.change().candidate() - l.change().baseline()).findFirst().orElse(0);
  }

  private static Finding finding(Statistics.Change c, double q, double thresholdPct) {
    if (!c.hasInterval()) {
      return Finding.UNTESTED;
    }
    double threshold = c.scale() == Statistics.Scale.RATIO ? thresholdPct : Comparison.ERROR_MARGIN_PP;
    if (q <= Verdict.FALSE_DISCOVERY_RATE && c.change() >= threshold) {
      return Finding.WORSE;
    }
    if (q <= Verdict.FALSE_DISCOVERY_RATE && c.change() <= -threshold) {
      return Finding.BETTER;
    }
    double[] tost = c.intervalAt(2 * c.confidence() - 1);
    return tost[0] > -threshold && tost[1] < threshold ? Finding.UNCHANGED : Finding.UNCLEAR;
  }

  /** What "per op" divides by in a run's compared phase ({@link PhaseResult#unitsOfWork}); null when none. */
  private static Double ops(Side.Run r) {
    long n = r.phase().unitsOfWork();
    return n > 0 ? (double) n : null;
  }

  private static Double perOp(Side.Run r, Double total) {
    Double n = ops(r);
    return total == null || n == null ? null : total / n;
  }

  private static PhaseResult.ServerSide server(Side.Run r) {
    return r.phase().server();
  }

  private static List<PhaseResult.Statement> statements(Side.Run r) {
    PhaseResult.ServerSide s = server(r);
    return s == null || s.statements() == null ? List.of() : s.statements();
  }

  private static PhaseResult.Statement statement(Side.Run r, String query) {
    return statements(r).stream().filter(s -> s.query().equals(query)).findFirst().orElse(null);
  }

  private static List<Measure> measures(List<Side.Run> b, List<Side.Run> c) {
    List<Side.Run> all = all(b, c);
    List<Measure> m = new ArrayList<>();
    Statistics.Scale ratio = Statistics.Scale.RATIO;
    Statistics.Scale pp = Statistics.Scale.DIFFERENCE;
    m.add(new Measure("server", "", SERVER_TIME, ratio, r -> statements(r).isEmpty() ? null
        : perOp(r, 1000 * statements(r).stream().mapToDouble(PhaseResult.Statement::timeMs).sum())));
    m.add(new Measure("server", "", "server CPU per op (µs)", ratio, r -> server(r) == null
        || server(r).serverCpuS() == null ? null : perOp(r, 1e6 * server(r).serverCpuS())));
    Set<String> queries = new TreeSet<>();
    all.forEach(r -> statements(r).forEach(s -> queries.add(s.query())));
    for (String q : queries) {
      m.add(ofStatement(q, STATEMENT_TIME, (r, s) -> perOp(r, 1000 * s.timeMs())));
      m.add(ofStatement(q, STATEMENT_MEAN, (r, s) -> s.meanUs()));
      m.add(ofStatement(q, "calls per op", (r, s) -> perOp(r, (double) s.calls())));
      m.add(ofStatement(q, "rows per call", (r, s) -> s.calls() == 0 ? null : (double) s.rows() / s.calls()));
      m.add(ofStatement(q, "blocks per call", (r, s) -> s.blksHit() == null || s.blksRead() == null
          || s.calls() == 0 ? null : (double) (s.blksHit() + s.blksRead()) / s.calls()));
      // The server's own percentile, where it keeps each statement's latency in buckets (YugabyteDB).
      m.add(ofStatement(q, SERVER_P99, (r, s) -> s.p99Us()));
    }
    Set<String> nodes = new TreeSet<>();
    all.forEach(r -> {
      if (server(r) != null && server(r).nodes() != null && server(r).nodes().size() > 1) {
        server(r).nodes().forEach(n -> nodes.add(n.node()));
      }
    });
    for (String node : nodes) {
      m.add(new Measure("node", node, "read mean (µs)", ratio, r -> node(r, node, NodeRates::readMeanUs)));
      m.add(new Measure("node", node, "write mean (µs)", ratio, r -> node(r, node, NodeRates::writeMeanUs)));
    }
    m.add(new Measure("client", "", CLIENT_CPU, ratio, r -> r.phase().client() == null ? null
        : r.phase().client().cpuUsPerOp()));
    m.add(new Measure("client", "", CLIENT_BUSY, ratio, r -> r.phase().client() == null ? null
        : r.phase().client().busyPct()));
    m.add(new Measure("conflicts", "", RETRIES, pp, r -> {
      Double n = ops(r);
      return n == null ? null : 100.0 * r.phase().retries() / n;
    }));
    Set<String> retried = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().forEach(o -> {
      if (o.retriesByClass() != null) {
        retried.addAll(o.retriesByClass().keySet());
      }
    }));
    for (String cls : retried) {
      m.add(new Measure("conflicts", "", "retries " + cls + " (% of ops)", pp, r -> {
        Double n = ops(r);
        long retries = r.phase().operations().values().stream().filter(o -> o.retriesByClass() != null)
            .mapToLong(o -> o.retriesByClass().getOrDefault(cls, 0L)).sum();
        return n == null ? null : 100.0 * retries / n;
      }));
    }
    Set<String> classes = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().forEach(o -> classes.addAll(o.errorsByClass().keySet())));
    for (String cls : classes) {
      m.add(new Measure("conflicts", "", "errors " + cls + " (% of ops)", pp, r -> share(r,
          o -> o.errorsByClass().getOrDefault(cls, 0L))));
    }
    Set<String> aborted = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().stream().filter(o -> o.abortsByClass() != null)
        .forEach(o -> aborted.addAll(o.abortsByClass().keySet())));
    for (String cls : aborted) {
      m.add(new Measure("conflicts", "", "aborts " + cls + " (% of ops)", pp, r -> share(r,
          o -> o.abortsByClass() == null ? 0L : o.abortsByClass().getOrDefault(cls, 0L))));
    }
    return m;
  }

  /** What {@code count} counts over the phase's operations, in % of those that ended. */
  private static Double share(Side.Run r, ToLongFunction<OperationResult> count) {
    long n = r.phase().operations().values().stream().mapToLong(count).sum();
    long ended = r.phase().successes() + r.phase().errors() + r.phase().aborts();
    return ended == 0 ? null : 100.0 * n / ended;
  }

  /** A metric of statement {@code query} in each run that ran it. */
  private static Measure ofStatement(String query, String metric,
      BiFunction<Side.Run, PhaseResult.Statement, Double> value) {
    return new Measure("statement", query, metric, Statistics.Scale.RATIO, r -> {
      PhaseResult.Statement s = statement(r, query);
      return s == null ? null : value.apply(r, s);
    });
  }

  private static Double node(Side.Run r, String node, Function<NodeRates, Double> value) {
    if (server(r) == null || server(r).nodes() == null) {
      return null;
    }
    return server(r).nodes().stream().filter(n -> n.node().equals(node)).map(value).filter(Objects::nonNull)
        .findFirst().orElse(null);
  }

  /**
   * Each side's plan shape per statement: the one most of its runs had (the latest run's among
   * equals). A plan can move between one side's runs as autovacuum analyzes a table the runs
   * changed; the first run's alone would then stand for a side whose other runs planned otherwise.
   */
  private static Map<String, String> shapes(List<Side.Run> runs) {
    Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
    for (Side.Run r : RunMatching.byStart(runs)) {
      Path f = r.dir().resolve(StatementPlans.FILE);
      if (!Files.isRegularFile(f)) {
        continue;
      }
      try {
        JsonNode phase = RunDirectory.JSON.readTree(f.toFile()).path("phases").path(r.phaseName());
        phase.forEach(p -> {
          if (p.hasNonNull("shape")) {
            Map<String, Integer> of = counts.computeIfAbsent(p.get("statement").asText(), k -> new LinkedHashMap<>());
            String shape = p.get("shape").asText();
            int n = of.getOrDefault(shape, 0) + 1;
            of.remove(shape); // re-inserted last: the latest run's shape wins a tie
            of.put(shape, n);
          }
        });
      } catch (IOException e) {
        // An unreadable plans.json is a run without plans: the note says so.
      }
    }
    Map<String, String> out = new LinkedHashMap<>();
    counts.forEach((statement, of) -> {
      String best = null;
      int most = 0;
      for (Map.Entry<String, Integer> e : of.entrySet()) {
        if (e.getValue() >= most) {
          best = e.getKey();
          most = e.getValue();
        }
      }
      out.put(statement, best);
    });
    return out;
  }

  /**
   * The statements whose plan changed, the most of the server's change first, each saying
   * whether its statement's time moved with it: detectably (the time of one execution — its mean,
   * or the server's p99 of it — worse or better), or by the threshold where one run a side leaves
   * it untested. Not its time per operation: that moves with how often the mix calls it (a
   * Delivery more or less per second), whatever the plan. A statement whose time the server did
   * not record keeps its plan change as a cause: nothing says it did not matter.
   */
  private static List<PlanChange> planChanges(Map<String, String> changed, Map<String, String> candidate,
      List<Layer> layers, double thresholdPct) {
    List<PlanChange> out = new ArrayList<>();
    changed.forEach((q, shape) -> {
      List<Layer> perExecution = layers.stream().filter(l -> l.layer().equals("statement") && l.item().equals(q)
          && (l.metric().equals(STATEMENT_MEAN) || l.metric().equals(SERVER_P99))).toList();
      boolean moved = perExecution.isEmpty() || perExecution.stream().anyMatch(l -> l.finding() == Finding.WORSE
          || l.finding() == Finding.BETTER || l.finding() == Finding.UNTESTED
          && Math.abs(l.change().change()) >= thresholdPct);
      double share = layers.stream().filter(l -> l.layer().equals("statement") && l.item().equals(q)
          && !Double.isNaN(l.share())).mapToDouble(Layer::share).findFirst().orElse(Double.NaN);
      out.add(new PlanChange(q, shape, candidate.get(q), moved, share));
    });
    out.sort(Comparator.comparing((PlanChange p) -> !p.timeMoved())
        .thenComparingDouble(p -> Double.isNaN(p.share()) ? 0 : -Math.abs(p.share())).thenComparing(PlanChange::statement));
    return out;
  }

  /** Why there are no plans to compare, or null when both sides have them. */
  private static String plansNote(List<Side.Run> b, List<Side.Run> c, Map<String, String> pb,
      Map<String, String> pc) {
    if (!pb.isEmpty() && !pc.isEmpty()) {
      return null;
    }
    // A YCQL run records where it connected as ycql.hosts.
    if (b.get(0).info().path("parameters").has("ycql.hosts")) {
      return "YCQL has no plans";
    }
    boolean baseline = pb.isEmpty();
    String why = unavailable(baseline ? b : c, ServerView.PLANS);
    return "plans not compared: " + (baseline ? "the baseline" : "the candidate") + " recorded none ("
        + (why != null ? why : "plans.json") + ")";
  }

  /** Why a side's runs did not record {@code part} of the server's view (the first that says), or null. */
  private static String unavailable(List<Side.Run> runs, String part) {
    return runs.stream().map(r -> server(r) == null ? null : server(r).unavailable(part)).filter(Objects::nonNull)
        .findFirst().orElse(null);
  }

  /**
   * "statements not recorded on the baseline (why)" when a side's runs have no statements from the
   * server, or null: a where without statements must not read as one where no statement changed.
   */
  private static String unrecorded(List<Side.Run> b, List<Side.Run> c) {
    String inB = unavailable(b, ServerView.STATEMENTS);
    String inC = unavailable(c, ServerView.STATEMENTS);
    if (inB == null && inC == null) {
      return null;
    }
    String where = inB != null && inC != null ? "on either side" : inB != null ? "on the baseline" : "on the candidate";
    return "statements not recorded " + where + " (" + (inB != null ? inB : inC) + ")";
  }

  /**
   * Above this share of its cores a client that got busier is named: beyond half, its threads
   * wait for a core often enough to hold operations back.
   */
  static final double CLIENT_BUSY_CAUSE_PCT = 50;

  /** Whether a side's client kept its cores busier than {@code pct} % (on average over its runs). */
  private static boolean busy(List<Side.Run> runs, double pct) {
    return runs.stream().filter(r -> r.phase().client() != null).mapToDouble(r -> r.phase().client().busyPct())
        .average().orElse(0) > pct;
  }

  /** "SELECT … FROM orders WHERE o_w_id = $1 … in OrderStatus": a statement, and whose it is where known. */
  private static String statement(String query, Map<String, List<String>> issuedBy) {
    List<String> ops = issuedBy.get(query);
    return abbreviate(query) + (ops == null || ops.isEmpty() ? "" : " in " + String.join(" and ", ops));
  }

  /** What the clause names as causes, in order: operations, server, statements, plans, nodes, client, conflicts. */
  private static List<String> causes(List<Layer> layers, List<PlanChange> plans, List<Side.Run> candidate,
      Map<String, List<String>> issuedBy) {
    List<String> causes = new ArrayList<>();
    // Which operations (transaction types) got slower, the most first: what the causes below reach.
    layers.stream().filter(l -> l.layer().equals("operation") && l.finding() == Finding.WORSE)
        .sorted(Comparator.comparingDouble((Layer l) -> l.change().change()).reversed())
        .forEach(l -> causes.add(l.item() + " p50 latency " + pct(l)));
    Layer serverTime = find(layers, "server", "", SERVER_TIME);
    Layer worstStatement = layers.stream().filter(l -> l.layer().equals("statement")
        && l.metric().equals(STATEMENT_TIME) && l.share() > 0 && l.finding() == Finding.WORSE).findFirst()
        .orElse(null);
    if (serverTime != null && serverTime.finding() == Finding.WORSE) {
      String s = "server time per op " + pct(serverTime);
      if (worstStatement != null) {
        Layer mean = find(layers, "statement", worstStatement.item(), STATEMENT_MEAN);
        Layer p99 = find(layers, "statement", worstStatement.item(), SERVER_P99);
        s += " (" + statement(worstStatement.item(), issuedBy) + ": " + String.format(Locale.ROOT, "%.0f %%",
            100 * worstStatement.share()) + " of it" + (mean != null ? ", mean " + pct(mean) : "")
            + (p99 != null && p99.finding() == Finding.WORSE ? ", server p99 " + pct(p99) : "") + ")";
      }
      causes.add(s);
    } else {
      Layer mean = worst(layers, STATEMENT_MEAN);
      Layer p99 = worst(layers, SERVER_P99);
      if (mean != null) {
        causes.add("server time per statement " + pct(mean) + " (" + statement(mean.item(), issuedBy) + ")");
      } else if (p99 != null) {
        causes.add("server p99 of a statement " + pct(p99) + " (" + statement(p99.item(), issuedBy) + ")");
      }
    }
    Layer serverCpu = find(layers, "server", "", "server CPU per op (µs)");
    if (serverCpu != null && serverCpu.finding() == Finding.WORSE) {
      causes.add("server CPU per op " + pct(serverCpu));
    }
    for (PlanChange p : plans) {
      if (p.timeMoved()) {
        causes.add("plan changed (" + abbreviate(p.baseline()) + " → " + abbreviate(p.candidate()) + ")");
      }
    }
    layers.stream().filter(l -> l.layer().equals("node") && l.finding() == Finding.WORSE)
        .forEach(l -> causes.add("node " + l.item() + " " + l.metric().replace(" (µs)", "") + " " + pct(l)));
    Layer cpu = find(layers, "client", "", CLIENT_CPU);
    Layer busy = find(layers, "client", "", CLIENT_BUSY);
    if (clientCause(layers, candidate)) {
      String busyText = busy == null ? "" : String.format(Locale.ROOT, "busy %.0f %% of its cores (was %.0f %%)",
          busy.change().candidate(), busy.change().baseline());
      causes.add(cpu != null && cpu.finding() == Finding.WORSE ? "client CPU per op " + pct(cpu) + ", " + busyText
          : "client " + busyText);
    }
    // Retries by class say more than their total: the total is named only when no class is.
    boolean byClass = layers.stream().anyMatch(l -> l.metric().startsWith("retries ") && !l.metric().equals(RETRIES)
        && l.finding() == Finding.WORSE);
    layers.stream().filter(l -> l.layer().equals("conflicts") && l.finding() == Finding.WORSE
            && !(byClass && l.metric().equals(RETRIES)))
        .forEach(l -> causes.add(l.metric().replace(" (% of ops)", "") + String.format(Locale.ROOT,
            " %+.2f pp of ops", l.change().change())));
    return causes;
  }

  private static boolean clientCause(List<Layer> layers, List<Side.Run> candidate) {
    Layer cpu = find(layers, "client", "", CLIENT_CPU);
    Layer busy = find(layers, "client", "", CLIENT_BUSY);
    // A client is the cause when it costs more per operation while busy, or when it became busier
    // and at least half busy: a client waiting on a slower server gets less busy, so one that gets
    // busier while doing less is starved (fewer cores, a hog beside it) or costs more.
    return cpu != null && cpu.finding() == Finding.WORSE && busy(candidate, PhaseResult.ClientSide.BUSY_WARNING_PCT)
        || busy != null && busy.finding() == Finding.WORSE && busy(candidate, CLIENT_BUSY_CAUSE_PCT);
  }

  /**
   * "server time per op +22.0 % (SELECT … : mean +2400.0 %), plan changed (Index Scan … → Seq
   * Scan …); client CPU per op unchanged", or "no layer changed detectably".
   */
  private static String clause(List<String> causes, List<Layer> layers, List<Side.Run> candidate,
      String unrecorded) {
    Layer serverTime = find(layers, "server", "", SERVER_TIME);
    Layer cpu = find(layers, "client", "", CLIENT_CPU);
    Layer busy = find(layers, "client", "", CLIENT_BUSY);
    boolean clientCause = clientCause(layers, candidate);
    boolean busyNow = busy(candidate, PhaseResult.ClientSide.BUSY_WARNING_PCT);
    List<String> unchanged = new ArrayList<>();
    if (serverTime != null && serverTime.finding() == Finding.UNCHANGED) {
      unchanged.add("server time per op unchanged");
    }
    if (!clientCause && cpu != null && cpu.finding() == Finding.UNCHANGED) {
      unchanged.add("client CPU per op unchanged");
    } else if (!clientCause && cpu != null && !busyNow) {
      unchanged.add(String.format(Locale.ROOT, "client not the bottleneck (busy %.0f %% of its cores)",
          busy == null ? Double.NaN : busy.change().candidate()));
    }
    if (unrecorded != null) {
      unchanged.add(0, unrecorded);
    }
    if (causes.isEmpty()) {
      boolean untested = layers.stream().allMatch(l -> l.finding() == Finding.UNTESTED);
      String none = untested ? "no layer tested (one run a side: repeat runs to trace the change)"
          : "no layer changed detectably";
      // Without the server's statements, "nothing changed" would claim what was not looked at.
      return unrecorded != null ? String.join(", ", unchanged) : none + (unchanged.isEmpty() ? ""
          : "; " + String.join(", ", unchanged));
    }
    return String.join(", ", causes) + (unchanged.isEmpty() ? "" : "; " + String.join(", ", unchanged));
  }

  /** The statement whose {@code metric} got worse the most, or null. */
  private static Layer worst(List<Layer> layers, String metric) {
    return layers.stream().filter(l -> l.layer().equals("statement") && l.metric().equals(metric)
        && l.finding() == Finding.WORSE).max(Comparator.comparingDouble(l -> l.change().change())).orElse(null);
  }

  private static Layer find(List<Layer> layers, String layer, String item, String metric) {
    return layers.stream().filter(l -> l.layer().equals(layer) && l.item().equals(item)
        && l.metric().equals(metric)).findFirst().orElse(null);
  }

  private static String pct(Layer l) {
    return String.format(Locale.ROOT, "%+.1f %%", l.change().change());
  }

  /** Long statements and plan shapes cut to a readable length. */
  static String abbreviate(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() <= 70 ? one : one.substring(0, 67) + "…";
  }
}
