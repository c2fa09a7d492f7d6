package dev.ybbench.pgbench.engine;

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
 * One pgbench process against the endpoint, its output read as it comes: every line into a
 * {@link PgbenchReport} and shown as pgbench prints it, but its progress lines (ybbench asks for
 * one a second, to record them) only every {@code showEveryS} seconds, as {@code -P} asked, or
 * never, and its report of each command ({@code -r}) only when asked. The password reaches
 * pgbench in its environment (PGPASSWORD, which libpq reads), never on its command line; so do the
 * endpoint's TLS settings (PGSSLMODE, PGSSLROOTCERT, …). Its standard input is empty, so that it
 * never waits for a password at a prompt.
 */
public final class PgbenchProcess {
  private PgbenchProcess() {}

  /** What ran and how it ended. */
  public record Outcome(PgbenchReport report, int exitCode, List<String> command) {}

  /**
   * The command line, without a password: the binary, the connection (-h, -p, -U), {@code options}
   * in order, then the database, which pgbench takes last (never by {@code -d}, which PostgreSQL
   * 17 made --dbname and earlier versions --debug).
   */
  public static List<String> command(PgbenchBinary binary, YsqlEndpoint endpoint, List<String> options) {
    List<String> cmd = new ArrayList<>(List.of(binary.path().toString(), "-h",
        endpoint.hosts().hosts().get(0).host(), "-p", Integer.toString(endpoint.hosts().hosts().get(0).port()),
        "-U", endpoint.user()));
    cmd.addAll(options);
    cmd.add(endpoint.database());
    return cmd;
  }

  /**
   * Runs it to its end, or until {@code onStop} is used (Ctrl-C: pgbench is ended; what it
   * printed and logged so far is kept).
   *
   * @param showEveryS     print a progress line when its second is a multiple of this; 0: none
   * @param showPerCommand print -r's report of the commands (ybbench asks for it, to audit the
   *                       statements of transactions that failed part-way; shown when -r was given)
   * @param onStop         receives what stops the process
   */
  public static Outcome run(List<String> command, YsqlEndpoint endpoint, int showEveryS, boolean showPerCommand,
      Consumer<String> console, Consumer<Runnable> onStop) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Libpq.environment(endpoint, pb.environment());
    Process p = pb.start();
    onStop.accept(p::destroy);
    PgbenchReport report = new PgbenchReport();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        PgbenchReport.Progress progress = report.accept(line);
        if (report.perCommand() ? showPerCommand : progress == null || (showEveryS > 0
            && Math.round(progress.elapsedS()) % showEveryS == 0)) {
          console.accept(line);
        }
      }
    }
    return new Outcome(report, p.waitFor(), command);
  }
}
