package dev.ybbench.ycsb.client;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.harness.run.MeasuredWindow;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.run.StatusLine;
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import dev.ybbench.ycsb.workload.Pool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * One YCSB phase, load or run: YCSB's own workload and client threads (so workload files mean
 * what they mean in YCSB), with the harness's measurement in between and a status line every
 * {@value #STATUS_EVERY_S} seconds (YCSB's {@code status.interval}).
 */
public final class YcsbPhase {
  public static final int STATUS_EVERY_S = 10;

  /** What ended the phase. */
  public enum End { COMPLETED, TIME_LIMIT, STOPPED, NOTHING_WORKS }

  /** Seconds of nothing but errors after which a phase gives up. */
  public static final int NOTHING_WORKS_S = 10;

  /** @param warmup the warm-up's result when there was one (recorded apart), else null */
  public record Result(String phase, Metrics metrics, PhaseRecorder recorder, double seconds, End end,
      PhaseResult warmup) {
    /** The phase as summary.json holds it. */
    public PhaseResult summary() {
      return PhaseResult.of(metrics, recorder, seconds);
    }
  }

  private final Phase phase;
  private final Properties props;
  private final Supplier<DB> bindings;
  private final Consumer<String> console;
  private final Consumer<Runnable> measuring;
  private volatile Workload workload;
  private volatile boolean stopRequested;
  private LoadCheckpoint checkpoint;
  private ClientThreads clientThreads = ClientThreads.platform();

  /**
   * @param phase    {@link Phase#LOAD} (inserts) or {@link Phase#RUN} (the workload's transaction mix)
   * @param props    effective YCSB properties
   * @param bindings makes one binding per thread
   * @param measuring called when the measured window begins (before the threads start, or when the
   *                  warm-up ends); it runs its argument, which opens the window, at the instant the
   *                  server's counts are read ({@link MeasuredWindow})
   */
  public YcsbPhase(Phase phase, Properties props, Supplier<DB> bindings, Consumer<String> console,
      Consumer<Runnable> measuring) {
    this.measuring = measuring;
    this.phase = phase;
    this.props = props;
    this.bindings = bindings;
    this.console = console;
  }

  /** A load that draws its keys from {@code c} and keeps it up to date (a CoreWorkload load only). */
  public YcsbPhase checkpointed(LoadCheckpoint c) {
    checkpoint = c;
    return this;
  }

  /** Runs the client threads as {@code t} makes them (one OS thread each unless --jobs). */
  public YcsbPhase on(ClientThreads t) {
    clientThreads = t;
    return this;
  }

  /** Asks the phase to stop early (Ctrl-C); it ends after the operations in flight. */
  public void stop() {
    stopRequested = true;
    Workload w = workload;
    if (w != null) {
      w.requestStop();
    }
  }

  /**
   * The workload named by {@code workload}, initialised: CoreWorkload as {@link CoreWorkload64}, any
   * other class as it is. Another class may parse operationcount as a 32-bit number, as YCSB's own
   * do; the harness counts operations itself, in 64 bits, so such a class sees at most
   * Integer.MAX_VALUE.
   */
  public static Workload workload(Properties props) throws Exception {
    String workloadClass = props.getProperty("workload");
    if (CoreWorkload64.isCore(workloadClass)) {
      CoreWorkload64 w = new CoreWorkload64();
      w.init(props);
      return w;
    }
    Properties p = (Properties) props.clone();
    String ops = p.getProperty("operationcount");
    if (ops != null && Long.parseLong(ops.strip()) > Integer.MAX_VALUE) {
      p.setProperty("operationcount", Integer.toString(Integer.MAX_VALUE));
    }
    Workload w = (Workload) Class.forName(workloadClass).getDeclaredConstructor().newInstance();
    w.init(p);
    return w;
  }

  /** The name the warm-up has in summary.json and timeseries.csv. */
  public static final String WARMUP = "warmup";

  /**
   * A pool of a phase's client threads, each with its own binding and connection.
   *
   * @param pool       the whole mix, or the readers' or writers' share of it
   * @param count      threads
   * @param operations operations the pool does in all (0 = until the time limit)
   * @param targetOps  the pool's rate over all its threads in ops/s, as a schedule (0 = as fast as they go)
   * @param perCall    operations (rows) one call of the workload does: a batch's rows
   *                   ({@link dev.ybbench.ycsb.workload.PooledWorkload#rowsPerCall})
   */
  public record Threads(Pool pool, int count, long operations, double targetOps, int perCall) {
    public Threads {
      if (perCall < 1) {
        throw new IllegalArgumentException("perCall " + perCall);
      }
    }

    /** A pool whose calls do one operation each. */
    public Threads(Pool pool, int count, long operations, double targetOps) {
      this(pool, count, operations, targetOps, 1);
    }

    /** What {@link #operations} counts, for the run's lines. */
    public String unit() {
      return perCall == 1 ? "operations" : "rows in batches of " + perCall;
    }

    /** The calls that do the operations, the last one whole (a batch is never cut short). */
    long calls() {
      return (operations + perCall - 1) / perCall;
    }
  }

  /** The operations a run phase's core workload will issue, by its proportions (YCSB's defaults where unset). */
  static List<String> operations(Properties props) {
    List<String> ops = new ArrayList<>();
    boolean rmw = proportion(props, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY,
        CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT);
    if (rmw || proportion(props, CoreWorkload.READ_PROPORTION_PROPERTY, CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT)) {
      ops.add("READ");
    }
    if (proportion(props, CoreWorkload.SCAN_PROPORTION_PROPERTY, CoreWorkload.SCAN_PROPORTION_PROPERTY_DEFAULT)) {
      ops.add("SCAN");
    }
    if (rmw || proportion(props, CoreWorkload.UPDATE_PROPORTION_PROPERTY,
        CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT)) {
      ops.add("UPDATE");
    }
    if (proportion(props, CoreWorkload.INSERT_PROPORTION_PROPERTY, CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT)) {
      ops.add("INSERT");
    }
    return ops;
  }

  private static boolean proportion(Properties props, String name, String fallback) {
    try {
      return Double.parseDouble(props.getProperty(name, fallback)) > 0;
    } catch (NumberFormatException e) {
      return false; // the workload refuses it itself, with its own message
    }
  }

  /**
   * Runs the pools at once, in one measured window.
   *
   * @param warmupSeconds operations run this long first, recorded apart as the phase "warmup" (0 = none)
   * @param maxSeconds    time limit of the measured window (0 = none)
   */
  public Result execute(List<Threads> pools, long warmupSeconds, long maxSeconds, Path latencyDir,
      Timeseries timeseries) throws Exception {
    int threads = pools.stream().mapToInt(Threads::count).sum();
    // Progress is against the operations asked for, when every pool has a limit.
    long opCount = pools.stream().allMatch(p -> p.operations() > 0)
        ? pools.stream().mapToLong(Threads::operations).sum() : 0;
    boolean load = phase == Phase.LOAD;
    Measurements.setProperties(props); // YCSB's workload and threads expect it to exist
    Workload w = workload(props);
    if (checkpoint != null) {
      ((CoreWorkload64) w).drawKeysFrom(checkpoint);
    }
    workload = w;
    if (stopRequested) {
      w.requestStop();
    }

    Verifications verifications = !load && BindingProperties.verifies(props) ? Verifications.start() : null;
    MeasuredWindow window = new MeasuredWindow(phase.toString(), warmupSeconds > 0, WARMUP, latencyDir, timeseries, measuring);
    window.targetOpsPerSecond(pools.stream().mapToDouble(Threads::targetOps).sum());
    window.expectOperations(load ? List.of("INSERT") : operations(props));
    Metrics metrics = window.window();
    MetricsSink sink = new MetricsSink(window.recording());
    sink.track(checkpoint);
    Set<String> reported = ConcurrentHashMap.newKeySet();
    CountDownLatch done = new CountDownLatch(threads);
    ClientThreadFailures threadFailures = new ClientThreadFailures();
    List<MeasuredDB> measured = new ArrayList<>();
    List<Thread> running = new ArrayList<>();
    if (warmupSeconds == 0) {
      window.open(0, sink::switchTo);
    }
    ClientLoop.Restart restart = new ClientLoop.Restart();
    int t = 0;
    for (Threads pool : pools) {
      // The pool's rate over its threads, as a schedule per thread: one call every this many ns.
      long intervalNanos = pool.targetOps() > 0
          ? Math.max(1, Math.round(pool.count() * 1e9 * pool.perCall() / pool.targetOps())) : 0;
      long ops = pool.calls();
      for (int i = 0; i < pool.count(); i++, t++) {
        // YCSB's split: each thread does ops / threads calls, the first (ops % threads) one more. A thread whose
        // share is 0 (fewer calls than threads) does nothing, rather than run unlimited.
        long mine = ops == 0 ? ClientLoop.UNLIMITED : ops / pool.count() + (i < ops % pool.count() ? 1 : 0);
        DB binding = bindings.get();
        binding.setProperties(props);
        if (binding instanceof OperationEvents.Source source) {
          source.setEvents(sink);
        }
        MeasuredDB m = new MeasuredDB(binding, sink, reported, console, threadFailures);
        measured.add(m);
        Thread th = clientThreads.newThread(new ClientLoop(m, w, props, !load, mine, intervalNanos, t, threads,
            pool.pool(), threadFailures, done, restart), "ycsb-" + phase + "-" + (pool.pool() == Pool.MIX ? ""
            : pool.pool().label() + "-") + i);
        // A binding that cannot start ends its thread with ClientThreadFailures.Failed; it is reported once, below.
        th.setUncaughtExceptionHandler(threadFailures);
        running.add(th);
      }
    }
    running.forEach(Thread::start);

    End end = End.COMPLETED;
    long startNanos = System.nanoTime();
    long statusEvery = Long.parseLong(props.getProperty(YcsbSettings.STATUS_INTERVAL,
        Integer.toString(STATUS_EVERY_S)).strip());
    long nextStatus = statusEvery;
    // A thread whose binding could not start never counts the latch down, so the threads themselves
    // say when the phase is over.
    while (!done.await(200, TimeUnit.MILLISECONDS) && running.stream().anyMatch(Thread::isAlive)) {
      if (threadFailures.count() > 0) {
        w.requestStop();
        break;
      }
      if (checkpoint != null) {
        checkpoint.saveEverySecond();
      }
      double elapsed = (System.nanoTime() - startNanos) / 1e9;
      if (!window.measuring() && elapsed >= warmupSeconds) {
        restart.now(); // the target's schedule begins again with the measured window
        window.open(elapsed, sink::switchTo);
        console.accept(String.format(Locale.ROOT, "[%s] %.0f s done; measuring from now", WARMUP, elapsed));
      }
      Metrics now = sink.current();
      if (elapsed >= NOTHING_WORKS_S && now.successes() == 0 && now.errors() > 0 && end == End.COMPLETED) {
        // Every operation so far failed: the run cannot stand, so say so now rather than at --duration.
        end = End.NOTHING_WORKS;
        w.requestStop();
      }
      // The window lasts maxSeconds from when it opened, not from the start plus the warm-up: this loop
      // may notice the warm-up's end late on a busy machine, and the phase's start reads the server's counters.
      if (maxSeconds > 0 && window.measuring() && window.recorder().elapsedSeconds() >= maxSeconds
          && end == End.COMPLETED) {
        end = End.TIME_LIMIT;
        w.requestStop();
      }
      if (stopRequested) {
        end = End.STOPPED;
      }
      if (elapsed >= nextStatus) {
        PhaseRecorder recorder = window.recorder();
        console.accept(recorder == null
            ? statusLine(load, window.warmup(), window.warmupRecorder(), elapsed, 0, warmupSeconds)
            : statusLine(load, metrics, recorder, recorder.elapsedSeconds(), opCount, maxSeconds)
                + pools(pools, metrics, recorder.elapsedSeconds()));
        nextStatus += statusEvery;
      }
    }
    for (Thread th : running) {
      th.join();
    }
    if (checkpoint != null) {
      checkpoint.save(); // every thread has flushed: what is settled now is final
    }
    // A phase that ended within its warm-up opens its (empty) window now.
    PhaseRecorder recorder = window.open((System.nanoTime() - startNanos) / 1e9, sink::switchTo);
    if (threadFailures.count() > 0) {
      recorder.close();
      w.cleanup();
      throw new RunFailure(threadFailures.reason(threads));
    }
    if (verifications != null) {
      verifications.record(phase.toString(), metrics, console); // counted in the measured window, the warm-up's too
    }
    double seconds = measurementWindow(measured, recorder.elapsedSeconds(), recorder.startNanos());
    recorder.close();
    w.cleanup();
    if (stopRequested) {
      end = End.STOPPED;
    }
    return new Result(phase.toString(), metrics, recorder, seconds, end, window.warmupResult());
  }

  /**
   * From the first operation of any thread to the end of the last one (its final flush included):
   * connecting and preparing before, and closing sessions after, are not throughput time; nor is
   * the warm-up, which ended at {@code sinceNanos}.
   */
  public static double measurementWindow(List<MeasuredDB> threads, double wallSeconds, long sinceNanos) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (MeasuredDB t : threads) {
      if (t.firstNanos() >= 0 && t.lastNanos() > sinceNanos) {
        first = Math.min(first, Math.max(t.firstNanos(), sinceNanos));
        last = Math.max(last, t.lastNanos());
      }
    }
    return first == Long.MAX_VALUE ? wallSeconds : Math.max((last - first) / 1e9, 1e-3);
  }

  /** ", readers 1200 ops/s, writers 300 ops/s" for separate pools (their operations are apart by kind); else "". */
  public static String pools(List<Threads> pools, Metrics m, double elapsed) {
    if (pools.size() == 1 && pools.get(0).pool() == Pool.MIX) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    for (Threads p : pools) {
      long ops = 0;
      for (var op : m.operations()) {
        if (Pool.of(op.name()) == p.pool()) {
          ops += op.successes();
        }
      }
      s.append(String.format(Locale.ROOT, ", %s %.0f ops/s", p.pool().label(), ops / Math.max(elapsed, 1e-9)));
    }
    return s.toString();
  }

  /**
   * "[load] 12 s, 45.0% 45000/100000 rows, 3750 rows/s, ETA 15 s, …" or, for a run limited by
   * time, "[run] 10 s of 60 s (16.7%), 201125 ops, 20112 ops/s, ETA 50 s, …, errors 0, aborts 0,
   * retries 0" ({@link StatusLine}): rows and ops are successes, as the rate is; errors, aborts and
   * retries are counted apart. Progress
   * against --operations counts every finished operation, failed ones too.
   */
  public static String statusLine(boolean load, Metrics m, PhaseRecorder recorder, double elapsed, long opCount,
      long maxSeconds) {
    long finished = m.successes() + m.errors();
    String unit = load ? "rows" : "ops";
    double byOps = opCount > 0 ? (double) finished / opCount : 0;
    double byTime = maxSeconds > 0 ? elapsed / maxSeconds : 0;
    double fraction = Math.max(byOps, byTime);
    StringBuilder s = new StringBuilder(StatusLine.head(recorder.phase(), elapsed, byTime > byOps ? maxSeconds : 0));
    if (byTime > byOps) {
      s.append(String.format(Locale.ROOT, ", %d %s", m.successes(), unit));
    } else if (opCount > 0) {
      s.append(String.format(Locale.ROOT, ", %.1f%% %d/%d %s", 100 * fraction, m.successes(), opCount, unit));
    } else {
      s.append(String.format(Locale.ROOT, ", %d %s", m.successes(), unit));
    }
    s.append(String.format(Locale.ROOT, ", %.0f %s/s", m.successes() / Math.max(elapsed, 1e-9), unit));
    if (fraction > 0 && fraction < 1) {
      s.append(String.format(Locale.ROOT, ", ETA %.0f s", elapsed * (1 - fraction) / fraction));
    }
    Timeseries.Row last = recorder.lastRow();
    if (last != null) {
      s.append(String.format(Locale.ROOT, ", last second p50 %.2f ms p99 %.2f ms", last.p50() / 1000.0,
          last.p99() / 1000.0));
    }
    return s.append(StatusLine.outcomes(m)).toString();
  }
}
