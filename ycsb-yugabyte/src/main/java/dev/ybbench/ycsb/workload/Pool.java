package dev.ybbench.ycsb.workload;

/**
 * Which of a run phase's thread pools a client thread belongs to. By default every thread runs
 * the workload's whole mix; with separate pools (the sample apps' reader and writer threads,
 * {@code --read-threads} / {@code --write-threads}) readers do only the mix's reads and scans and
 * writers only its inserts and updates, each pool with its own threads, limit and rate, so a slow
 * write never holds up the next read.
 */
public enum Pool {
  /** The workload's whole mix. */
  MIX("run"),
  /** Reads and scans only. */
  READ("readers"),
  /** Inserts and updates only. */
  WRITE("writers");

  private final String label;

  Pool(String label) {
    this.label = label;
  }

  /** The pool an operation of the mix belongs to: reads and scans are the readers', the rest the writers'. */
  public static Pool of(String operation) {
    return operation.equals("READ") || operation.equals("SCAN") ? READ : WRITE;
  }

  /** How the terminal names the pool's threads. */
  public String label() {
    return label;
  }
}
