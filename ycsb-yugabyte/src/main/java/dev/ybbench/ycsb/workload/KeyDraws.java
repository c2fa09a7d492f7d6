package dev.ybbench.ycsb.workload;

import java.util.function.LongFunction;
import site.ycsb.generator.NumberGenerator;

/**
 * Where a load draws its key numbers from in place of a counter: the runner's load checkpoint,
 * which then knows which keys a crash may have left unwritten.
 */
public interface KeyDraws {
  /** The key numbers to insert; {@code name} is the workload's name for a key number. */
  NumberGenerator keys(LongFunction<String> name);

  /** The name of {@code keynum} if it is the key this thread drew last (built once), else null. */
  String drawnName(long keynum);
}
