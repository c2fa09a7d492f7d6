package dev.ybbench.harness.prometheus;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Timeseries;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.net.BindException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code --prometheus-port}: the run's metrics ({@link RunCollector}) served at /metrics in the
 * Prometheus text and OpenMetrics formats by the official client's HTTP server, on every
 * interface (a fleet's pods are scraped from outside), from before the server starts until the
 * results are written and, when something is scraping, one scrape after that.
 */
public final class PrometheusEndpoint implements AutoCloseable {
  /** The longest wait for a last scrape after the results are written. */
  static final long MAX_LAST_SCRAPE_WAIT_S = 120;

  private final HTTPServer server;
  private final RunCollector collector;
  private volatile Timeseries run;
  private volatile Labels labels;

  private PrometheusEndpoint(int port, Labels labels, LongSupplier cpuNanos) throws IOException {
    this.labels = labels;
    this.collector = new RunCollector(() -> run, () -> this.labels, cpuNanos);
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(collector);
    this.server = HTTPServer.builder().port(port).registry(registry).buildAndStart();
  }

  /**
   * Binds the port and starts serving, before anything else starts: a port in use is the user's
   * to change.
   *
   * @param port     0 for any free port ({@link #port()} says which)
   * @param client   this client's index in a fleet ("0" alone)
   * @param fleet    the fleet's id, "" alone
   * @param cpuNanos the client process's CPU time so far
   */
  public static PrometheusEndpoint start(int port, String bench, String workload, String label, String client,
      String fleet, LongSupplier cpuNanos) {
    checkRange(port);
    Labels labels = Labels.of("bench", bench, "client", client, "fleet", fleet, "label", label == null ? "" : label,
        "run_id", "", "workload", workload);
    try {
      return new PrometheusEndpoint(port, labels, cpuNanos);
    } catch (BindException e) {
      throw inUse(port);
    } catch (IOException e) {
      throw new UserError("--prometheus-port " + port + ": cannot serve there (" + e.getMessage() + ")");
    }
  }

  /**
   * Refuses a port the run could not serve on, as the run itself would: out of range, or in use
   * now (for a dry run, which serves nothing).
   */
  public static void check(int port) {
    checkRange(port);
    if (port == 0) {
      return;
    }
    try {
      new java.net.ServerSocket(port).close();
    } catch (BindException e) {
      throw inUse(port);
    } catch (IOException e) {
      throw new UserError("--prometheus-port " + port + ": cannot serve there (" + e.getMessage() + ")");
    }
  }

  private static void checkRange(int port) {
    if (port < 0 || port > 65535) {
      throw new UserError("--prometheus-port takes a port from 1 to 65535, or 0 for any free one; was " + port);
    }
  }

  private static UserError inUse(int port) {
    return new UserError("--prometheus-port " + port + " is in use: choose another port, or 0 for any free one");
  }

  /** The port it serves on. */
  public int port() {
    return server.getPort();
  }

  /** The run has its directory and its record: its counters are served from now, labelled with its id. */
  public void runStarted(String runId, Timeseries record) {
    labels = Labels.of("bench", labels.get("bench"), "client", labels.get("client"), "fleet", labels.get("fleet"),
        "label", labels.get("label"), "run_id", runId, "workload", labels.get("workload"));
    run = record;
  }

  /**
   * Once the results are written: when something has been scraping, waits for its next scrape,
   * which sees the final counts, up to twice the longest gap seen between its scrapes (at least
   * 5 s, at most {@value #MAX_LAST_SCRAPE_WAIT_S} s). Returns at once when nothing scraped.
   *
   * @param stop ends the wait early (Ctrl-C)
   * @param say  where to say that it waits
   */
  public void awaitLastScrape(BooleanSupplier stop, Consumer<String> say) throws InterruptedException {
    long written = System.nanoTime();
    long previous = collector.lastScrapeNanos();
    if (previous == 0) {
      return;
    }
    long waitNanos = Math.min(TimeUnit.SECONDS.toNanos(MAX_LAST_SCRAPE_WAIT_S),
        Math.max(TimeUnit.SECONDS.toNanos(5), 2 * collector.longestGapNanos()));
    say.accept(String.format(Locale.ROOT, "Prometheus: waiting up to %.0f s for a last scrape of the "
        + "final counts on port %d", waitNanos / 1e9, port()));
    while (collector.lastScrapeNanos() - written < 0 && System.nanoTime() - written < waitNanos
        && !stop.getAsBoolean()) {
      Thread.sleep(50);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
