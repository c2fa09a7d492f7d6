package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a phase's sessions waited on, as the server's own samples of them say: per statement, its
 * samples by wait event ({@code class:event}, e.g. {@code Lock:transactionid}; {@code CPU} for a
 * PostgreSQL session active and waiting on nothing the server instruments), each sample weighted
 * as the server weighs it (YugabyteDB's {@code sample_weight}; 1 on PostgreSQL). server.json keeps
 * it per phase; summary.json keeps each statement's part beside its time.
 *
 * @param source       what was sampled, how often
 * @param samplings    how many times the sessions were looked at (PostgreSQL); null where the server sampled
 * @param samples      the weighted samples of the benchmark's sessions (background work apart)
 * @param events       those by wait event, the most first
 * @param statements   per statement text, its samples by wait event, the most first
 * @param unattributed samples of the benchmark's sessions whose statement the server's statistics do
 *                     not name (e.g. a statement evicted from pg_stat_statements), by wait event
 * @param background   the server's own work (YugabyteDB's background query ids), by wait event
 * @param onCpuPct     the share of {@code samples} on CPU
 * @param unavailable  why no profile was recorded (and nothing else is set), or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WaitProfile(String source, Long samplings, Double samples, Map<String, Double> events,
    Map<String, Map<String, Double>> statements, Map<String, Double> unattributed, Map<String, Double> background,
    Double onCpuPct, String unavailable) {

  /** PostgreSQL's name for a session that is active and waits on nothing instrumented. */
  public static final String CPU = "CPU";

  /** No profile, and why. */
  public static WaitProfile unavailable(String source, String why) {
    return new WaitProfile(source, null, null, null, null, null, null, null, why);
  }

  /**
   * The profile of samples counted by statement ({@code statements}; what no statement could be
   * named for under a null key) and of background work.
   */
  public static WaitProfile of(String source, Long samplings, Map<String, Map<String, Double>> statements,
      Map<String, Double> background) {
    Map<String, Double> events = new TreeMap<>();
    Map<String, Map<String, Double>> byStatement = new TreeMap<>();
    Map<String, Double> unattributed = null;
    for (Map.Entry<String, Map<String, Double>> e : statements.entrySet()) {
      e.getValue().forEach((event, n) -> events.merge(event, n, Double::sum));
      if (e.getKey() == null) {
        unattributed = mostFirst(e.getValue());
      } else {
        byStatement.put(e.getKey(), mostFirst(e.getValue()));
      }
    }
    double total = events.values().stream().mapToDouble(Double::doubleValue).sum();
    double cpu = events.entrySet().stream().filter(e -> onCpu(e.getKey())).mapToDouble(Map.Entry::getValue).sum();
    return new WaitProfile(source, samplings, total, mostFirst(events), byStatement, unattributed,
        background == null || background.isEmpty() ? null : mostFirst(background),
        total == 0 ? null : Math.round(1000 * cpu / total) / 10.0, null);
  }

  /**
   * Whether an event is time on CPU: PostgreSQL's {@link #CPU}, YugabyteDB's {@code OnCpu_*}
   * events (e.g. {@code Cpu:OnCpu_Active}).
   */
  public static boolean onCpu(String event) {
    return event.equals(CPU) || event.substring(event.indexOf(':') + 1).startsWith("OnCpu_");
  }

  /** The counts, the most first (ties by name), in a map that keeps that order. */
  static Map<String, Double> mostFirst(Map<String, Double> counts) {
    Map<String, Double> out = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /**
   * The most sampled events with their share, for a line of the timeseries: "Lock:transactionid
   * 58%;CPU 30%;LWLock:WALWrite 7%" (semicolons: the file is comma-separated); "" when none.
   */
  public static String top(Map<String, Double> events, int n) {
    double total = events.values().stream().mapToDouble(Double::doubleValue).sum();
    if (total <= 0) {
      return "";
    }
    List<String> parts = mostFirst(events).entrySet().stream().limit(n)
        .map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), 100 * e.getValue() / total)).toList();
    return String.join(";", parts);
  }
}
