package dev.ybbench.sysbench.engine;

import dev.ybbench.harness.ysql.Libpq;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One {@code sysbench TEST … run} against the endpoint, its output read as it comes: every line
 * into a {@link SysbenchReport}, and shown as sysbench prints it, but the interval lines only every
 * {@code showEveryS} seconds and the histogram only when asked (ybbench asks for both to record
 * them). The password reaches sysbench in its environment (PGPASSWORD, which libpq reads), never
 * on its command line; so do the endpoint's TLS settings (PGSSLMODE, PGSSLROOTCERT, …).
 */
public final class SysbenchProcess {
  private SysbenchProcess() {}

  /** What ran and how it ended. */
  public record Outcome(SysbenchReport report, int exitCode, List<String> command) {}

  /**
   * The command line, without a password.
   *
   * @param options sysbench's options, each "--name=value", in order
   */
  public static List<String> command(SysbenchBinary binary, String test, YsqlEndpoint endpoint, List<String> options) {
    List<String> cmd = new ArrayList<>(List.of(binary.path().toString(), test, "--db-driver=pgsql",
        "--pgsql-host=" + String.join(",", endpoint.hosts().hosts().stream().map(h -> h.host()).toList()),
        "--pgsql-port=" + endpoint.hosts().hosts().get(0).port(), "--pgsql-user=" + endpoint.user(),
        "--pgsql-db=" + endpoint.database()));
    cmd.addAll(options);
    cmd.add("run");
    return cmd;
  }

  /**
   * Runs it to its end, or until {@code onStop} is used (Ctrl-C: sysbench is ended, what it
   * reported so far is kept).
   *
   * @param showEveryS  print an interval line when its second is a multiple of this
   * @param histogram   print sysbench's latency histogram
   * @param onStop      receives what stops the process
   */
  public static Outcome run(List<String> command, YsqlEndpoint endpoint, int showEveryS, boolean histogram,
      Consumer<String> console, Consumer<Runnable> onStop) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    Libpq.environment(endpoint, pb.environment());
    Process p = pb.start();
    onStop.accept(p::destroy);
    SysbenchReport report = new SysbenchReport();
    boolean inHistogram = false;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        SysbenchReport.Interval interval = report.accept(line);
        if (line.startsWith("Latency histogram")) {
          inHistogram = true;
        } else if (line.equals("SQL statistics:")) {
          inHistogram = false;
        }
        boolean shown = interval != null ? Math.round(interval.elapsedS()) % showEveryS == 0
            : !inHistogram || histogram;
        if (shown) {
          console.accept(line);
        }
      }
    }
    return new Outcome(report, p.waitFor(), command);
  }
}
