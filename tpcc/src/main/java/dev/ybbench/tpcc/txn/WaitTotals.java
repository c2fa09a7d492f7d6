package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.tpcc.core.TpccFigures;

/** One type's keying, think and connection waits in ms: count, sum, minimum, maximum. */
final class WaitTotals {
  private final double[][] stats = new double[3][];

  WaitTotals() {
    reset();
  }

  synchronized void reset() {
    for (int i = 0; i < 3; i++) {
      stats[i] = new double[] {0, 0, Double.MAX_VALUE, 0};
    }
  }

  void keying(double ms) {
    add(0, ms);
  }

  void think(double ms) {
    add(1, ms);
  }

  void connection(double ms) {
    add(2, Math.max(0, ms));
  }

  private synchronized void add(int which, double ms) {
    double[] s = stats[which];
    s[0]++;
    s[1] += ms;
    s[2] = Math.min(s[2], ms);
    s[3] = Math.max(s[3], ms);
  }

  synchronized TpccFigures.TerminalWaits result() {
    if (stats[0][0] == 0) {
      return null;
    }
    return new TpccFigures.TerminalWaits((long) stats[0][0], range(stats[0]), range(stats[1]), range(stats[2]));
  }

  private static TpccFigures.TerminalWaits.Range range(double[] s) {
    if (s[0] == 0) {
      return null;
    }
    return new TpccFigures.TerminalWaits.Range(s[2] / 1000, s[1] / s[0] / 1000, s[3] / 1000);
  }
}
