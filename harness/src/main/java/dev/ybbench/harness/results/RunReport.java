package dev.ybbench.harness.results;

import static dev.ybbench.harness.results.HtmlText.esc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code report.html} of a single run, one page that leads with the answer: the state and each
 * phase's throughput, errors, aborts and retries; then every operation's counts and latency; then the
 * run's charts; the parameters, server and environment last, folded. It reads only what the run
 * directory holds (summary.json, run.json, plots/), so it opens from disk without a network.
 */
public final class RunReport {
  public static final String FILE = "report.html";

  private RunReport() {}

  public static void write(Path dir, RunSummary summary, Map<String, Object> info) throws IOException {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
        .append(esc(summary.bench() + " " + summary.workload())).append("</title><style>body{font-family:sans-serif;"
            + "margin:2em;max-width:1100px}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            + "padding:3px 8px;text-align:right}td:first-child,th{text-align:left}.failed,.interrupted{background:#fdd}"
            + ".complete{background:#dfd}</style></head><body>\n");
    Object server = info.get("server");
    String serverName = server instanceof Map<?, ?> m ? m.get("product") + " " + m.get("version") : "";
    h.append("<h1>").append(esc(summary.bench() + " " + summary.workload() + " on " + serverName)).append("</h1>\n");
    h.append("<p class=\"").append(esc(String.valueOf(summary.state()))).append("\"><b>Run ")
        .append(esc(String.valueOf(summary.state()))).append("</b>")
        .append(summary.reason() == null ? "" : ": " + esc(summary.reason())).append("</p>\n<ul>\n");
    for (Map.Entry<String, PhaseResult> e : summary.phases().entrySet()) {
      h.append("<li>").append(esc(answer(e.getKey(), e.getValue()))).append("</li>\n");
    }
    h.append("</ul>\n");
    for (Map.Entry<String, PhaseResult> e : summary.phases().entrySet()) {
      PhaseResult p = e.getValue();
      if (p.operations() == null || p.operations().isEmpty()) {
        continue;
      }
      h.append("<h2>").append(esc(e.getKey())).append("</h2>\n<table><tr><th>operation</th><th>successes</th>"
          + "<th>ops/s</th><th>errors</th><th>aborts</th><th>retries</th><th>p50 µs</th><th>p95 µs</th>"
          + "<th>p99 µs</th><th>p99.9 µs</th><th>max µs</th></tr>\n");
      for (Map.Entry<String, OperationResult> o : p.operations().entrySet()) {
        OperationResult r = o.getValue();
        LatencyPercentiles l = r.latencyUs();
        h.append("<tr><td>").append(esc(o.getKey())).append("</td>");
        Stream.of(r.successes(), String.format(Locale.ROOT, "%.1f", r.throughputOps()), r.errors(), r.aborts(),
            r.retries(), l == null ? null : l.p50(), l == null ? null : l.p95(), l == null ? null : l.p99(),
            l == null ? null : l.p99_9(), l == null ? null : l.max())
            .forEach(v -> h.append("<td>").append(v == null ? "" : esc(v.toString())).append("</td>"));
        h.append("</tr>\n");
      }
      h.append("</table>\n<p>Latency from the ").append(esc(String.valueOf(p.latencyFrom()))).append(".</p>\n");
    }
    Path plots = dir.resolve("plots");
    if (Files.isDirectory(plots)) {
      List<String> svgs;
      try (Stream<Path> s = Files.list(plots)) {
        svgs = s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".svg")).sorted().toList();
      }
      if (!svgs.isEmpty()) {
        h.append("<h2>Charts</h2>\n");
        svgs.forEach(n -> h.append("<p><img src=\"plots/").append(n).append("\" alt=\"").append(n)
            .append("\"></p>\n"));
      }
    }
    h.append("<details><summary>Parameters, server and environment</summary>\n<pre>")
        .append(esc(RunDirectory.JSON.writeValueAsString(info))).append("</pre>\n</details>\n</body></html>\n");
    Files.writeString(dir.resolve(FILE), h.toString());
  }

  /**
   * "run: 17838.9 ops/s over 8.0 s, 143177 successes, 0 errors, 0 aborts, 0 retries", and the
   * benchmark's headline and figures where it names them ("; tpmC 1827.0, efficiency 99.80 %").
   */
  static String answer(String phase, PhaseResult p) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s: %.1f ops/s over %.1f s, %d successes, %d "
        + "errors, %d aborts, %d retries", phase, p.throughputOps(), p.durationS(), p.successes(), p.errors(),
        p.aborts(), p.retries()));
    if (!p.headline().throughput() && p.rows() == null) {
      s.append(String.format(Locale.ROOT, "; %s %.1f", p.headline().metric(), p.headline().value()));
      if (p.figures() != null) {
        p.figures().forEach(f -> s.append(String.format(Locale.ROOT, ", %s %.2f %s", f.metric(), f.value(),
            f.unit())));
      }
    }
    if (p.rows() != null) {
      s.append(String.format(Locale.ROOT, "; %d rows", p.rows()));
    }
    if (p.server() != null && p.server().serverStatements() != null) {
      s.append(String.format(Locale.ROOT, "; server audit: %d statements for %d operations (Δ %.2f %%)",
          p.server().serverStatements(), p.server().harnessOperations(), p.server().deltaPct()));
    }
    if (p.server() != null && p.server().unavailable() != null) {
      p.server().unavailable().forEach((part, why) -> s.append("; server's ").append(part).append(" not recorded: ")
          .append(why));
    }
    if (p.client() != null && p.client().cpuUsPerOp() != null) {
      s.append(String.format(Locale.ROOT, "; client %.1f µs CPU/op, %.0f %% of %d cores", p.client().cpuUsPerOp(),
          p.client().busyPct(), p.client().cores()));
    }
    return s.toString();
  }
}
