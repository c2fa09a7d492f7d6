package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccRandom;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A work's terminals over a pool of connections, like a TP monitor in front of the database
 * (yugabyte/tpcc's {@code --num-connections}). Each terminal waits in one queue, ordered by when
 * its keying time ends; a worker thread, one per connection, takes the next terminal whose
 * submission is due, runs its transaction (retrying conflicts), and puts it back with its next
 * submission time: its think time (clause 5.2.5.4), then the keying time (clause 5.2.5.2) of the
 * transaction it picks next. With as many connections as terminals and no waits this is
 * BenchBase's thread per terminal; with the spec's waits, 1,000 terminals need only the
 * connections their work in flight keeps busy.
 *
 * <p>A response time runs from the terminal's submission to the end of its transaction
 * (clause 5.2.5.3), so time spent waiting for a free connection counts in it; that wait is also
 * reported on its own ({@link #waits}). Under a {@code <rate>} each terminal also has slots in a
 * schedule, and the latency recorded first runs from the slot (coordinated omission), the
 * response time beside it.
 *
 * <p>With {@code deferDelivery} (the spec's run), a Delivery's terminal only queues it and is
 * answered at once; the business transaction runs later on workers of its own (clause 2.7.2), and
 * its latency runs from the queueing to its end.
 */
public final class Terminals {
  /** A Delivery queued by a terminal (clause 2.7.2.1): the warehouse and carrier it keyed, and when. */
  record DeferredDelivery(int warehouse, int carrier, long queued) {}

  /**
   * How a work is driven.
   *
   * @param connections   worker threads for the terminals, each with its own connection
   * @param deferDelivery queue Deliveries and run them apart (clause 2.7.2), on
   *                      {@link #deliveryConnections} more workers
   * @param maxRetries    retries of a conflicting transaction before it counts as failed
   */
  public record Setup(int connections, boolean deferDelivery, int maxRetries) {
    /**
     * Workers for deferred Deliveries: one per 10 terminal connections, at least one. A Delivery
     * is 4 % of the mix and about as long as a New-Order, so this leaves them idle more often than
     * the terminals' workers; their queueing shows in the Deliveries' latency, which runs from
     * when each was queued.
     */
    public int deliveryConnections() {
      return deferDelivery ? (connections + 9) / 10 : 0;
    }
  }

  private final List<Terminal> terminals;
  private final Supplier<Connection> connect;
  private final TpccConfig config;
  private final TpccConfig.Work work;
  private final int totalWarehouses;
  private final Setup setup;
  /** Each terminal's spacing between slots under a rate, ns; 0 without. */
  private final long slotNanos;
  private final DelayQueue<Terminal> queue = new DelayQueue<>();
  private final BlockingQueue<DeferredDelivery> deliveries = new LinkedBlockingQueue<>();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<TransactionKind, WaitTotals> waits = new EnumMap<>(TransactionKind.class);
  /** Submissions before the terminal's think and keying times were over: a broken schedule, always 0. */
  private final LongAdder early = new LongAdder();
  private volatile Metrics sink;
  private volatile boolean stopped;

  /**
   * @param connect opens a connection (autocommit off, the config's isolation)
   */
  public Terminals(List<Terminal> terminals, Supplier<Connection> connect, TpccConfig config, TpccConfig.Work work,
      int totalWarehouses, Setup setup, Metrics sink) {
    this.terminals = List.copyOf(terminals);
    this.connect = connect;
    this.config = config;
    this.work = work;
    this.totalWarehouses = totalWarehouses;
    this.setup = setup;
    this.sink = sink;
    this.slotNanos = work.rate() == null ? 0 : (long) (terminals.size() / work.rate() * 1e9);
    for (TransactionKind k : TransactionKind.values()) {
      waits.put(k, new WaitTotals());
    }
  }

  /**
   * Every terminal picks its first transaction, and the workers start. Without a rate, each
   * terminal's first submission falls at a random point of one mean cycle of the mix's keying and
   * think times from now, as if it had been keying and thinking before the run began: started
   * together, the terminals stay in step for their first cycles, and a warm-up shorter than a
   * cycle measures their first wave (1,000 spec terminals, 300 s after a 10 s warm-up: 103.1 %
   * efficiency, against 98.5 % after 60 s; started out of step, 99.4 % after 10 s). Under a
   * rate the slots set the pace.
   */
  public void start() {
    long now = System.nanoTime();
    long cycle = slotNanos > 0 ? 0 : meanCycleNanos();
    for (Terminal t : terminals) {
      t.slot = now;
      keyNext(t, now, 0);
      if (cycle > 0) {
        t.due = now + (long) (t.random.fraction() * cycle);
        t.intended = t.due;
      }
      queue.add(t);
    }
    for (int i = 0; i < setup.connections(); i++) {
      threads.add(new Thread(new Worker(this, false), "tpcc-worker-" + i));
    }
    for (int i = 0; i < setup.deliveryConnections(); i++) {
      threads.add(new Thread(new Worker(this, true), "tpcc-delivery-" + i));
    }
    threads.forEach(Thread::start);
  }

  /** Where results go from now on (the runner swaps the warm-up's sink for the measurement's). */
  public void recordInto(Metrics metrics) {
    this.sink = metrics;
  }

  /** Workers finish the transaction they are running and stop; queued work is dropped. */
  public void stop() {
    stopped = true;
  }

  /** Waits up to {@code millis} for every worker to end; whether they all did. */
  public boolean join(long millis) throws InterruptedException {
    long until = System.currentTimeMillis() + millis;
    for (Thread t : threads) {
      t.join(Math.max(1, until - System.currentTimeMillis()));
    }
    return threads.stream().noneMatch(Thread::isAlive);
  }

  /** Starts counting keying, think and connection waits afresh (at the start of the measured window). */
  public void resetWaits() {
    waits.values().forEach(WaitTotals::reset);
    early.reset();
  }

  /**
   * Per type that ran: the keying and think times the terminals waited (the full disclosure
   * report's minimum, mean and maximum, clause 8.1.5.3) and how long submissions waited for a
   * free connection.
   */
  public Map<String, TpccFigures.TerminalWaits> waits() {
    Map<String, TpccFigures.TerminalWaits> out = new LinkedHashMap<>();
    waits.forEach((k, w) -> {
      TpccFigures.TerminalWaits r = w.result();
      if (r != null) {
        out.put(k.benchbaseName(), r);
      }
    });
    return out;
  }

  /** Submissions made before their think and keying times were over (must be 0). */
  public long earlySubmissions() {
    return early.sum();
  }

  // What the workers ask of the schedule.

  /** The next terminal whose submission is due, or null after 100 ms without one. */
  Terminal nextDue() throws InterruptedException {
    return queue.poll(100, TimeUnit.MILLISECONDS);
  }

  /** The next deferred Delivery, or null after 100 ms without one. */
  DeferredDelivery nextDelivery() throws InterruptedException {
    return deliveries.poll(100, TimeUnit.MILLISECONDS);
  }

  /**
   * A worker takes the terminal's submission at {@code start}: its keying time and its wait for a
   * connection are counted. A Delivery under deferDelivery is queued (clause 2.7.2.1) and true
   * returned: the terminal is answered at once.
   */
  boolean submit(Terminal t, long start) {
    if (t.lastResponse != 0 && start - t.lastResponse < t.waitedMs * 1_000_000L) {
      early.increment();
    }
    WaitTotals w = waits.get(t.next);
    w.keying(t.keyingMs);
    w.connection((start - t.due) / 1_000_000.0);
    if (setup.deferDelivery() && t.next == TransactionKind.DELIVERY) {
      deliveries.add(new DeferredDelivery(t.warehouse, Delivery.carrier(t.random), t.due));
      return true;
    }
    return false;
  }

  /** The terminal was answered at {@code end}: it thinks, keys its next transaction and queues again. */
  void answered(Terminal t, long end) {
    long think = t.thinkTime(config.transaction(t.next.benchbaseName()).postExecutionWaitMs());
    waits.get(t.next).think(think);
    t.lastResponse = end;
    keyNext(t, end, think);
    if (!stopped) {
      queue.add(t);
    }
  }

  boolean stopped() {
    return stopped;
  }

  Metrics sink() {
    return sink;
  }

  /** Whether a rate's schedule sets the terminals' slots (latency then runs from the slot). */
  boolean paced() {
    return slotNanos > 0;
  }

  Setup setup() {
    return setup;
  }

  int totalWarehouses() {
    return totalWarehouses;
  }

  /** A new connection for a worker (autocommit off, the config's isolation). */
  Connection connect() {
    return connect.get();
  }

  /**
   * After a response at {@code end} (or at the start): picks the next transaction by the work's
   * weights and schedules its submission after the think time of the one just answered and the
   * keying time of the next.
   */
  private void keyNext(Terminal t, long end, long thinkMs) {
    TransactionKind kind = pick(t.random);
    long keying = config.transaction(kind.benchbaseName()).preExecutionWaitMs();
    long waited = thinkMs + keying;
    long due = end + waited * 1_000_000L;
    if (slotNanos > 0) {
      if (t.lastResponse != 0) {
        t.slot += slotNanos;
      }
      // A terminal that is early for its slot waits for it; one running late submits at once.
      due = Math.max(due, t.slot + keying * 1_000_000L);
      t.intended = t.slot + keying * 1_000_000L;
    } else {
      t.intended = due;
    }
    t.next = kind;
    t.keyingMs = keying;
    t.waitedMs = waited;
    t.due = due;
  }

  /** The mix's mean keying plus think time per transaction, in ns (0 without waits). */
  long meanCycleNanos() {
    List<Integer> weights = work.weights();
    List<TpccConfig.TransactionType> types = config.transactionTypes();
    double sum = 0;
    double weighted = 0;
    for (int i = 0; i < types.size() && i < weights.size(); i++) {
      sum += weights.get(i);
      weighted += weights.get(i) * (double) (types.get(i).preExecutionWaitMs() + types.get(i).postExecutionWaitMs());
    }
    return sum == 0 ? 0 : (long) (weighted / sum * 1_000_000L);
  }

  private TransactionKind pick(TpccRandom random) {
    int roll = random.uniform(1, 100);
    List<Integer> weights = work.weights();
    List<TpccConfig.TransactionType> types = config.transactionTypes();
    int sum = 0;
    for (int i = 0; i < weights.size(); i++) {
      sum += weights.get(i);
      if (roll <= sum) {
        return TransactionKind.named(types.get(i).name());
      }
    }
    throw new IllegalStateException("weights do not sum to 100");
  }

}
