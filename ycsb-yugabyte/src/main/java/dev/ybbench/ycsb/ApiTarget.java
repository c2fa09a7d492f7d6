package dev.ybbench.ycsb;

import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.run.RunLifecycle;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import site.ycsb.DB;

/**
 * One YugabyteDB API as the runner sees it: a server that is up (embedded or given by
 * --hosts), what it is, how to create the benchmark's schema on it, and a binding per client
 * thread. YSQL and YCQL each implement it; the runner never asks which one it has.
 */
public interface ApiTarget extends RunLifecycle.Target {
  /**
   * Creates the keyspace or database if missing and the table afresh. The run then holds the
   * table against other runs dropping it, until {@link #close()}; a table another run holds is
   * refused with a {@link dev.ybbench.harness.UserError}. With a {@code fleet} id (else null),
   * the table is marked as that fleet's, for {@link #schemaReady}. {@code onStop} is handed what
   * ends it at once on Ctrl-C (a cluster's DDL can wait or take seconds).
   */
  void createSchema(String fleet, Consumer<String> log, Consumer<Runnable> onStop);

  /**
   * Whether the table another client of a fleet creates is there to load into: it exists and,
   * with a {@code fleet} id, carries that fleet's mark (so a table left from an earlier run is
   * not mistaken for it). False while the keyspace or database is missing.
   */
  boolean schemaReady(String fleet);

  /**
   * For a run that does not load ({@code --phase run}): checks that the keyspace or database and
   * the table exist, and over YSQL holds the table against other runs dropping it until
   * {@link #close()}. Never drops or creates anything.
   *
   * @throws dev.ybbench.harness.run.RunFailure when the keyspace, database or table is missing
   */
  void useExistingSchema(Consumer<String> log);

  /**
   * For a fleet's client other than 0: waits, for at most {@code maxSeconds}, until client 0 has
   * created the table (with a {@code fleet} id, that fleet's), then holds it as a run that does
   * not create it. Returns early when {@code interrupted} says so.
   *
   * @throws dev.ybbench.harness.run.RunFailure when the table does not come in time
   */
  default void awaitSchema(String fleet, int clientIndex, int clients, int maxSeconds, BooleanSupplier interrupted,
      Consumer<String> log) throws InterruptedException {
    long start = System.nanoTime();
    long nextLine = 0;
    while (!schemaReady(fleet)) {
      long waited = (System.nanoTime() - start) / 1_000_000_000L;
      if (interrupted.getAsBoolean()) {
        return;
      }
      if (waited >= maxSeconds) {
        throw new RunFailure("client " + clientIndex + " of " + clients + " waited " + maxSeconds + " s for the "
            + "table " + (fleet == null ? "" : "of fleet " + fleet + " ") + "that client 0 creates; start client 0 "
            + "with the same " + (fleet == null ? "--database" : "--fleet and --database") + ", or create it first "
            + "with --phase create");
      }
      if (waited >= nextLine) {
        log.accept("Waiting for client 0 to create the table" + (fleet == null ? "" : " of fleet " + fleet)
            + " (" + waited + " s of at most " + maxSeconds + " s)");
        nextLine = waited + 10;
      }
      Thread.sleep(500);
    }
    useExistingSchema(log);
  }

  /** A new, uninitialised binding; YCSB's client thread sets its properties and calls init(). */
  DB newBinding();

  /**
   * How the run phase's client threads run, given how they were {@code asked} to (--jobs): as
   * asked, unless the binding brings its own event loops to run them on.
   */
  default ClientThreads runThreads(ClientThreads asked) {
    return asked;
  }

  /** A new binding for the run phase, on {@link #runThreads}: by default the load's, {@link #newBinding()}. */
  default DB newRunBinding() {
    return newBinding();
  }

  /** Lets go of the table and stops an embedded server (idempotent). */
  @Override
  void close();
}
