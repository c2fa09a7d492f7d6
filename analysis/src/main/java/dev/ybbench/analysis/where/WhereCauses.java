package dev.ybbench.analysis.where;

import static dev.ybbench.analysis.where.LayerComparison.abbreviate;
import static dev.ybbench.analysis.where.LayerComparison.CLIENT_BUSY;
import static dev.ybbench.analysis.where.LayerComparison.CLIENT_CPU;
import static dev.ybbench.analysis.where.LayerComparison.RETRIES;
import static dev.ybbench.analysis.where.LayerComparison.SERVER_P99;
import static dev.ybbench.analysis.where.LayerComparison.SERVER_TIME;
import static dev.ybbench.analysis.where.LayerComparison.STATEMENT_MEAN;
import static dev.ybbench.analysis.where.LayerComparison.STATEMENT_TIME;

import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.where.LayerComparison.Finding;
import dev.ybbench.analysis.where.LayerComparison.Layer;
import dev.ybbench.analysis.where.LayerComparison.PlanChange;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.server.ServerView;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The clause a verdict line carries after "where:": the layers that got worse, named as causes in
 * order (operations, server, statements, plans, nodes, client, conflicts), then what was shown
 * unchanged, or what was not recorded.
 */
public final class WhereCauses {
  private WhereCauses() {}

  /**
   * Above this share of its cores a client that got busier is named: beyond half, its threads
   * wait for a core often enough to hold operations back.
   */
  static final double CLIENT_BUSY_CAUSE_PCT = 50;

  /** Whether a side's client kept its cores busier than {@code pct} % (on average over its runs). */
  static boolean busy(List<RunGroup.Run> runs, double pct) {
    return runs.stream().filter(r -> r.phase().client() != null).mapToDouble(r -> r.phase().client().busyPct())
        .average().orElse(0) > pct;
  }

  /** "SELECT … FROM orders WHERE o_w_id = $1 … in OrderStatus": a statement, and whose it is where known. */
  static String statement(String query, Map<String, List<String>> issuedBy) {
    List<String> ops = issuedBy.get(query);
    return abbreviate(query) + (ops == null || ops.isEmpty() ? "" : " in " + String.join(" and ", ops));
  }

  /**
   * "statements not recorded on the baseline (why)" when a side's runs have no statements from the
   * server, or null: a where without statements must not read as one where no statement changed.
   */
  static String unrecorded(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    String inB = WhereMeasures.unavailable(b, ServerView.STATEMENTS);
    String inC = WhereMeasures.unavailable(c, ServerView.STATEMENTS);
    if (inB == null && inC == null) {
      return null;
    }
    String where = inB != null && inC != null ? "on either side" : inB != null ? "on the baseline" : "on the candidate";
    return "statements not recorded " + where + " (" + (inB != null ? inB : inC) + ")";
  }

  /** What the clause names as causes, in order: operations, server, statements, plans, nodes, client, conflicts. */
  static List<String> causes(List<Layer> layers, List<PlanChange> plans, List<RunGroup.Run> candidate,
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
    String named = null;
    if (serverTime != null && serverTime.finding() == Finding.WORSE) {
      String s = "server time per op " + pct(serverTime);
      if (worstStatement != null) {
        named = worstStatement.item();
        Layer mean = find(layers, "statement", named, STATEMENT_MEAN);
        Layer p99 = find(layers, "statement", named, SERVER_P99);
        s += " (" + statement(named, issuedBy) + ": " + String.format(Locale.ROOT, "%.0f %%",
            100 * worstStatement.share()) + " of it" + (mean != null ? ", mean " + pct(mean) : "")
            + (p99 != null && p99.finding() == Finding.WORSE ? ", server p99 " + pct(p99) : "")
            + beneathClause(named, layers) + ")";
      }
      causes.add(s);
    } else {
      Layer mean = worst(layers, STATEMENT_MEAN);
      Layer p99 = worst(layers, SERVER_P99);
      if (mean != null) {
        named = mean.item();
        causes.add("server time per statement " + pct(mean) + " (" + statement(named, issuedBy)
            + beneathClause(named, layers) + ")");
      } else if (p99 != null) {
        named = p99.item();
        causes.add("server p99 of a statement " + pct(p99) + " (" + statement(named, issuedBy)
            + beneathClause(named, layers) + ")");
      }
    }
    // Other statements slower per execution, with what moved beneath them (a few: the table has all).
    String first = named;
    layers.stream().filter(l -> l.layer().equals("statement") && l.metric().equals(STATEMENT_MEAN)
            && l.finding() == Finding.WORSE && !l.item().equals(first))
        .sorted(Comparator.comparingDouble((Layer l) -> l.change().change()).reversed()).limit(MORE_STATEMENTS)
        .forEach(l -> {
          String beneath = beneath(l.item(), layers);
          if (beneath != null) {
            causes.add(statement(l.item(), issuedBy) + ": mean " + pct(l) + "; " + beneath);
          }
        });
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

  /** How many statements beyond the first a clause names with what moved beneath them. */
  static final int MORE_STATEMENTS = 2;
  /** How many wait events, and how many work counters, a statement's clause names. */
  static final int BENEATH_EACH = 3;

  private static String beneathClause(String query, List<Layer> layers) {
    String b = beneath(query, layers);
    return b == null ? "" : "; " + b;
  }

  /**
   * What moved beneath a statement's time: the wait events whose share of its samples grew
   * detectably, by their part of its change ("Lock:transactionid 3 % → 58 % of its samples"),
   * then the counters of its work per call that grew ("docdb_rows_scanned per call 1 → 10,000");
   * or that its waits and work per call were shown unchanged; null when neither can be said.
   */
  static String beneath(String query, List<Layer> layers) {
    List<Layer> waits = layers.stream().filter(l -> l.item().equals(query) && LayerComparison.waitEvent(l) != null)
        .toList();
    List<Layer> work = layers.stream().filter(l -> l.layer().equals("statement") && l.item().equals(query)
        && l.metric().endsWith(WhereMeasures.PER_CALL)).toList();
    List<String> named = new ArrayList<>();
    waits.stream().filter(l -> l.finding() == Finding.WORSE)
        .sorted(Comparator.comparingDouble((Layer l) -> Double.isNaN(l.share()) ? 0 : -l.share())
            .thenComparingDouble(l -> -l.change().change()))
        .limit(BENEATH_EACH)
        .forEach(l -> named.add(String.format(Locale.ROOT, "%s %.0f %% → %.0f %% of its samples",
            LayerComparison.waitEvent(l), l.change().baseline(), l.change().candidate())));
    work.stream().filter(l -> l.finding() == Finding.WORSE)
        .sorted(Comparator.comparingDouble((Layer l) -> -l.change().change())).limit(BENEATH_EACH)
        .forEach(l -> named.add(l.metric() + " " + amount(l.change().baseline()) + " → "
            + amount(l.change().candidate())));
    if (!named.isEmpty()) {
      return String.join(", ", named);
    }
    boolean waitsSame = !waits.isEmpty() && waits.stream().allMatch(l -> l.finding() == Finding.UNCHANGED);
    boolean workSame = !work.isEmpty() && work.stream().allMatch(l -> l.finding() == Finding.UNCHANGED);
    return waitsSame && workSame ? "its waits and work per call unchanged" : waitsSame ? "its waits unchanged"
        : workSame ? "its work per call unchanged" : null;
  }

  /** A count per call as people read it: 10,000; 1,204; 3.5; 0.354. */
  static String amount(double v) {
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return v == 0 ? "0" : new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
  }

  static boolean clientCause(List<Layer> layers, List<RunGroup.Run> candidate) {
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
  static String clause(List<String> causes, List<Layer> layers, List<RunGroup.Run> candidate,
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
  static Layer worst(List<Layer> layers, String metric) {
    return layers.stream().filter(l -> l.layer().equals("statement") && l.metric().equals(metric)
        && l.finding() == Finding.WORSE).max(Comparator.comparingDouble(l -> l.change().change())).orElse(null);
  }

  static Layer find(List<Layer> layers, String layer, String item, String metric) {
    return layers.stream().filter(l -> l.layer().equals(layer) && l.item().equals(item)
        && l.metric().equals(metric)).findFirst().orElse(null);
  }

  static String pct(Layer l) {
    return String.format(Locale.ROOT, "%+.1f %%", l.change().change());
  }
}
