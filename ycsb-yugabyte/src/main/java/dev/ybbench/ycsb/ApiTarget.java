package dev.ybbench.ycsb;

import dev.ybbench.harness.run.RunLifecycle;
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
   * the table is marked as that fleet's, for {@link #schemaReady}.
   */
  void createSchema(String fleet, Consumer<String> log);

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

  /** A new, uninitialised binding; YCSB's client thread sets its properties and calls init(). */
  DB newBinding();

  /** Lets go of the table and stops an embedded server (idempotent). */
  @Override
  void close();
}
