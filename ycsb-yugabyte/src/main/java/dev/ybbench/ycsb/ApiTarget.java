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
  /** Creates the keyspace or database if missing and the table afresh. */
  void createSchema(Consumer<String> log);

  /** A new, uninitialised binding; YCSB's client thread sets its properties and calls init(). */
  DB newBinding();

  /** The options every API shares. */
  record Options(String hosts, String dbVersion, int threads, boolean loads, int nodes) {}
}
