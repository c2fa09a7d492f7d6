package dev.ybbench.harness.compare;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.server.NodeRates;
import dev.ybbench.harness.server.Plans;
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
import java.util.function.Function;

/**
 * Where a change lives: the layers every run records beside its figures — the server's time and
 * CPU per operation and per statement (pg_stat_statements: mean time, calls, rows and blocks per
 * call), each node's latency, the client's CPU per operation and busy share, retries and errors
 * by class — compared with the same statistics as the headline (per-run values, paired by round,
 * intervals; Benjamini–Hochberg across a workload's layer rows), and each statement's plan shape
 * compared between the sides ({@link Plans}).
 *
 * <p>A layer is named as a cause when it got worse by the threshold with its q-value at most
 * 5 %: the server when its time or CPU per operation, a statement's mean time, or a plan did; the
 * client only when its CPU per operation got worse <em>and</em> it was busy (above
 * {@link PhaseResult.ClientSide#BUSY_WARNING_PCT} % of its cores, or its busy share rose), since a client
 * waiting on a slower server spends its fixed costs over fewer operations without being the
 * bottleneck; conflicts when retries or an error class rose by {@link Comparison#ERROR_MARGIN_PP}
 * points of the operations. A layer shown within ± the threshold by two one-sided tests is
 * "unchanged".
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
   * @param layer  server, statement, node, client or conflicts
   * @param item   what within the layer (a statement's text, a node's address), or ""
   * @param metric e.g. "time per op (µs)"
   * @param share  for a statement's time per op, its part of the change of the server's time per
   *               op (−1 … 1 and beyond), else NaN
   */
  record Layer(String layer, String item, String metric, Statistics.Change change, double q, Finding finding,
      double share) {}

  /** A statement whose plan shape differs between the sides. */
  record PlanChange(String statement, String baseline, String candidate) {}

  /** A workload's layers, its plan changes, and the clause naming what changed. */
  record Workload(List<Layer> layers, List<PlanChange> plans, String plansNote, String clause) {}

  private Where() {}

  private static final String SERVER_TIME = "server time per op (µs)";
  private static final String CLIENT_CPU = "client CPU per op (µs)";
  private static final String CLIENT_BUSY = "client busy (% of its cores)";

  /** A metric's value in one run, or null when the run did not record it. */
  private record Measure(String layer, String item, String metric, Statistics.Scale scale,
      Function<Side.Run, Double> value) {}

  static Workload of(List<Side.Run> b, List<Side.Run> c, boolean paired, double thresholdPct) {
    List<Measure> measures = measures(b, c);
    List<Layer> raw = new ArrayList<>();
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
    double[] q = Statistics.benjaminiHochberg(raw.stream().mapToDouble(l -> l.change().p()).toArray());
    double totalDelta = delta(raw, "server", SERVER_TIME);
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      Layer l = raw.get(i);
      double share = l.layer().equals("statement") && l.metric().equals("time per op (µs)") && totalDelta != 0
          ? (l.change().candidate() - l.change().baseline()) / totalDelta : Double.NaN;
      layers.add(new Layer(l.layer(), l.item(), l.metric(), l.change(), q[i], finding(l.change(), q[i],
          thresholdPct), share));
    }
    layers.sort(Comparator.comparingInt((Layer l) -> ORDER.indexOf(l.layer()))
        .thenComparing(l -> Double.isNaN(l.share()) ? 0 : -Math.abs(l.share())));
    List<PlanChange> plans = planChanges(b, c);
    String plansNote = plansNote(b, c);
    return new Workload(layers, plans, plansNote, clause(layers, plans, c));
  }

  private static final List<String> ORDER = List.of("server", "statement", "node", "client", "conflicts");

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

  /** The successes of a run's compared phase (rows for a load measured in rows): "per op" divides by it. */
  private static Double ops(Side.Run r) {
    PhaseResult p = r.phase();
    long n = p.successes() > 0 || p.rows() == null ? p.successes() : p.rows();
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
    List<Side.Run> all = new ArrayList<>(b);
    all.addAll(c);
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
      m.add(new Measure("statement", q, "time per op (µs)", ratio, r -> {
        PhaseResult.Statement s = statement(r, q);
        return s == null ? null : perOp(r, 1000 * s.timeMs());
      }));
      m.add(new Measure("statement", q, "mean (µs)", ratio, r -> {
        PhaseResult.Statement s = statement(r, q);
        return s == null ? null : s.meanUs();
      }));
      m.add(new Measure("statement", q, "calls per op", ratio, r -> {
        PhaseResult.Statement s = statement(r, q);
        return s == null ? null : perOp(r, (double) s.calls());
      }));
      m.add(new Measure("statement", q, "rows per call", ratio, r -> {
        PhaseResult.Statement s = statement(r, q);
        return s == null || s.calls() == 0 ? null : (double) s.rows() / s.calls();
      }));
      m.add(new Measure("statement", q, "blocks per call", ratio, r -> {
        PhaseResult.Statement s = statement(r, q);
        return s == null || s.blksHit() == null || s.blksRead() == null || s.calls() == 0 ? null
            : (double) (s.blksHit() + s.blksRead()) / s.calls();
      }));
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
    m.add(new Measure("conflicts", "", "retries (% of ops)", pp, r -> {
      Double n = ops(r);
      return n == null ? null : 100.0 * r.phase().retries() / n;
    }));
    Set<String> classes = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().forEach(o -> classes.addAll(o.errorsByClass().keySet())));
    for (String cls : classes) {
      m.add(new Measure("conflicts", "", "errors " + cls + " (% of ops)", pp, r -> {
        long errors = r.phase().operations().values().stream().map(OperationResult::errorsByClass)
            .mapToLong(e -> e.getOrDefault(cls, 0L)).sum();
        long attempts = r.phase().successes() + r.phase().errors();
        return attempts == 0 ? null : 100.0 * errors / attempts;
      }));
    }
    return m;
  }

  private static Double node(Side.Run r, String node, Function<NodeRates, Double> value) {
    if (server(r) == null || server(r).nodes() == null) {
      return null;
    }
    return server(r).nodes().stream().filter(n -> n.node().equals(node)).map(value).filter(Objects::nonNull)
        .findFirst().orElse(null);
  }

  /** Each side's plan shape per statement, from the first of its runs that recorded plans. */
  private static Map<String, String> shapes(List<Side.Run> runs) {
    for (Side.Run r : runs) {
      Path f = r.dir().resolve(Plans.FILE);
      if (!Files.isRegularFile(f)) {
        continue;
      }
      try {
        JsonNode phase = RunDirectory.JSON.readTree(f.toFile()).path("phases").path(r.phaseName());
        Map<String, String> out = new LinkedHashMap<>();
        phase.forEach(p -> {
          if (p.hasNonNull("shape")) {
            out.put(p.get("statement").asText(), p.get("shape").asText());
          }
        });
        if (!out.isEmpty()) {
          return out;
        }
      } catch (IOException e) {
        // An unreadable plans.json is a run without plans: the note says so.
      }
    }
    return Map.of();
  }

  private static List<PlanChange> planChanges(List<Side.Run> b, List<Side.Run> c) {
    Map<String, String> pb = shapes(b);
    Map<String, String> pc = shapes(c);
    List<PlanChange> out = new ArrayList<>();
    for (Map.Entry<String, String> e : pb.entrySet()) {
      String other = pc.get(e.getKey());
      if (other != null && !Plans.fingerprint(other).equals(Plans.fingerprint(e.getValue()))) {
        out.add(new PlanChange(e.getKey(), e.getValue(), other));
      }
    }
    return out;
  }

  /** Why there are no plans to compare, or null when both sides have them. */
  private static String plansNote(List<Side.Run> b, List<Side.Run> c) {
    if (!shapes(b).isEmpty() && !shapes(c).isEmpty()) {
      return null;
    }
    boolean ycql = b.get(0).info().at("/parameters").fieldNames().hasNext()
        && b.get(0).info().at("/parameters/ycql.hosts").isTextual();
    return ycql ? "YCQL has no plans" : "plans not compared: " + (shapes(b).isEmpty() ? "the baseline" : "the "
        + "candidate") + " recorded none (plans.json)";
  }

  /**
   * "server time per op +22.0 % (SELECT … : mean +2400.0 %), plan changed (Index Scan … → Seq
   * Scan …); client CPU per op unchanged", or "no layer changed detectably".
   */
  private static String clause(List<Layer> layers, List<PlanChange> plans, List<Side.Run> candidate) {
    List<String> causes = new ArrayList<>();
    Layer serverTime = find(layers, "server", "", SERVER_TIME);
    Layer worstStatement = layers.stream().filter(l -> l.layer().equals("statement")
        && l.metric().equals("time per op (µs)") && l.share() > 0 && l.finding() == Finding.WORSE).findFirst()
        .orElse(null);
    if (serverTime != null && serverTime.finding() == Finding.WORSE) {
      String s = "server time per op " + pct(serverTime);
      if (worstStatement != null) {
        Layer mean = find(layers, "statement", worstStatement.item(), "mean (µs)");
        s += " (" + abbreviate(worstStatement.item()) + ": " + String.format(Locale.ROOT, "%.0f %%",
            100 * worstStatement.share()) + " of it" + (mean != null ? ", mean " + pct(mean) : "") + ")";
      }
      causes.add(s);
    } else {
      layers.stream().filter(l -> l.layer().equals("statement") && l.metric().equals("mean (µs)")
          && l.finding() == Finding.WORSE).findFirst()
          .ifPresent(l -> causes.add("server time per statement " + pct(l) + " (" + abbreviate(l.item()) + ")"));
    }
    Layer serverCpu = find(layers, "server", "", "server CPU per op (µs)");
    if (serverCpu != null && serverCpu.finding() == Finding.WORSE) {
      causes.add("server CPU per op " + pct(serverCpu));
    }
    for (PlanChange p : plans) {
      causes.add("plan changed (" + abbreviate(p.baseline()) + " → " + abbreviate(p.candidate()) + ")");
    }
    layers.stream().filter(l -> l.layer().equals("node") && l.finding() == Finding.WORSE)
        .forEach(l -> causes.add("node " + l.item() + " " + l.metric().replace(" (µs)", "") + " " + pct(l)));
    Layer cpu = find(layers, "client", "", CLIENT_CPU);
    Layer busy = find(layers, "client", "", CLIENT_BUSY);
    boolean busyNow = candidate.stream().anyMatch(r -> r.phase().client() != null
        && r.phase().client().busyPct() > PhaseResult.ClientSide.BUSY_WARNING_PCT);
    boolean clientCause = cpu != null && cpu.finding() == Finding.WORSE
        && (busyNow || busy != null && busy.finding() == Finding.WORSE);
    if (clientCause) {
      causes.add("client CPU per op " + pct(cpu) + (busy != null ? String.format(Locale.ROOT, ", busy %.0f %% of "
          + "its cores", busy.change().candidate()) : ""));
    }
    layers.stream().filter(l -> l.layer().equals("conflicts") && l.finding() == Finding.WORSE)
        .forEach(l -> causes.add(l.metric().replace(" (% of ops)", "") + String.format(Locale.ROOT,
            " %+.2f pp of ops", l.change().change())));
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
    if (causes.isEmpty()) {
      boolean untested = layers.stream().allMatch(l -> l.finding() == Finding.UNTESTED);
      return (untested ? "no layer tested (one run a side: repeat runs to trace the change)"
          : "no layer changed detectably") + (unchanged.isEmpty() ? "" : "; " + String.join(", ", unchanged));
    }
    return String.join(", ", causes) + (unchanged.isEmpty() ? "" : "; " + String.join(", ", unchanged));
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
