package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.UserError;
import java.util.Locale;

/**
 * What a run does (--phase, a workload file's {@code ybbench.phase}, YCSB's {@code
 * dotransactions}): load the table, run the mix over it, both, or create the table alone for
 * clients that then load it. Spelt in lower case wherever a user sees it.
 */
public enum Phase {
  LOAD, RUN, BOTH, CREATE;

  /** The phase a name spells (in lower case, as --phase takes it); an unknown one is refused. */
  public static Phase named(String name) {
    for (Phase p : values()) {
      if (p.toString().equals(name)) {
        return p;
      }
    }
    throw new UserError("Unknown --phase '" + name + "' (or ybbench.phase); use load, run, both or create");
  }

  /** Whether this phase loads the table. */
  public boolean loads() {
    return this == LOAD || this == BOTH;
  }

  /** Whether this phase runs the workload's mix. */
  public boolean runs() {
    return this == RUN || this == BOTH;
  }

  /** "load", "run", "both", "create": as --phase, run.json and the plan spell it. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
