package dev.ybbench.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.PhaseSummary;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One result for a database that several client machines drove at once, each with its own
 * --start-warehouse range: counts and tpmC add up, and latency percentiles come from the
 * clients' HdrHistograms added together, which is exact.
 */
final class TpccMerge {
  private TpccMerge() {}

  static Path merge(List<Path> runs, Path resultsRoot) throws IOException {
    List<JsonNode> summaries = new ArrayList<>();
    for (Path r : runs) {
      Path s = r.resolve("summary.json");
      if (!Files.isRegularFile(s)) {
        throw new UserError(r + " is not a run directory (no summary.json)");
      }
      JsonNode j = RunDirectory.JSON.readTree(s.toFile());
      if (!"tpcc".equals(j.path("bench").asText()) || j.at("/phases/execute").isMissingNode()) {
        throw new UserError(r + " holds no TPC-C execute phase to merge");
      }
      summaries.add(j);
    }
    JsonNode first = summaries.get(0);
    for (int i = 1; i < summaries.size(); i++) {
      if (!summaries.get(i).get("server").equals(first.get("server"))) {
        throw new UserError("Cannot merge runs against different servers: " + first.get("server") + " and "
            + summaries.get(i).get("server"));
      }
    }
    Map<String, Histogram> latency = new TreeMap<>();
    Map<String, long[]> counts = new TreeMap<>(); // successes, errors, retries
    double tpmC = 0;
    double seconds = 0;
    int warehouses = 0;
    int terminals = 0;
    for (int i = 0; i < runs.size(); i++) {
      JsonNode exec = summaries.get(i).at("/phases/execute");
      tpmC += exec.path("tpmC").asDouble();
      seconds = Math.max(seconds, exec.path("duration_s").asDouble());
      warehouses += summaries.get(i).path("warehouses").asInt();
      terminals += summaries.get(i).path("terminals").asInt();
      for (Iterator<Map.Entry<String, JsonNode>> it = exec.path("operations").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> op = it.next();
        long[] c = counts.computeIfAbsent(op.getKey(), k -> new long[3]);
        c[0] += op.getValue().path("successes").asLong();
        c[1] += op.getValue().path("errors").asLong();
        c[2] += op.getValue().path("retries").asLong();
      }
      HlogFiles.totals(runs.get(i).resolve("latency"), "execute")
          .forEach((op, h) -> latency.computeIfAbsent(op, k -> new Histogram(3)).add(h));
    }
    Map<String, Object> ops = new LinkedHashMap<>();
    counts.forEach((op, c) -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("successes", c[0]);
      o.put("errors", c[1]);
      o.put("retries", c[2]);
      o.put("latency_us", PhaseSummary.percentiles(latency.get(op)));
      ops.put(op, o);
    });
    Map<String, Object> exec = new LinkedHashMap<>();
    exec.put("duration_s", seconds);
    exec.put("tpmC", Math.round(tpmC * 10) / 10.0);
    exec.put("efficiency_pct", Math.round(TpccMetrics.efficiency(tpmC, warehouses) * 100) / 100.0);
    exec.put("response_time_limits", TpccMetrics.responseTimeLimits(latency));
    exec.put("operations", ops);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("bench", "tpcc");
    summary.put("workload", first.path("workload").asText() + "-merged");
    summary.put("state", RunInfo.COMPLETE);
    summary.put("server", first.get("server"));
    summary.put("warehouses", warehouses);
    summary.put("terminals", terminals);
    summary.put("merged_from", runs.stream().map(Path::toString).toList());
    summary.put("phases", Map.of("execute", exec));

    ServerInfo server = new ServerInfo(first.at("/server/product").asText(), first.at("/server/version").asText(), "");
    RunDirectory out = RunDirectory.create(resultsRoot, "tpcc", first.path("workload").asText() + "-merged", server,
        Instant.now());
    HlogFiles.write(out.latencyDir(), "execute", latency);
    out.writeJson("summary.json", summary);
    RunInfo info = new RunInfo("tpcc", first.path("workload").asText() + "-merged", null, Instant.now())
        .put("merged_from", runs.stream().map(Path::toString).toList())
        .end(RunInfo.COMPLETE, Instant.now(), null);
    out.writeJson("run.json", info.tree());
    return out.path();
  }
}
