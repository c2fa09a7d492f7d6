package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which YCSB workload files a run means: a name in workloads/ or a path, then any -P files (a
 * relative path from here, else from ybbench's home), read in that order as YCSB reads several
 * -P (a later file's values replace an earlier one's).
 */
final class WorkloadFiles {
  private WorkloadFiles() {}

  /** The files, WORKLOAD first; an unknown one is a one-line error listing the workloads shipped. */
  static List<Path> resolve(String workload, List<Path> files, Path home) {
    List<Path> out = new ArrayList<>();
    if (workload != null) {
      out.add(named(workload, home));
    }
    for (Path f : files) {
      // As YCSB reads -P workloads/… from its home, a relative path missing here is looked up in ybbench's.
      Path found = Files.isRegularFile(f) || f.isAbsolute() ? f : home.resolve(f);
      if (!Files.isRegularFile(found)) {
        throw new UserError("Workload file " + f + " (-P) does not exist");
      }
      out.add(found);
    }
    if (out.isEmpty()) {
      throw new UserError("Name a workload, e.g. ./run_ycsb.sh workloada (see --help)");
    }
    return out;
  }

  private static Path named(String workload, Path home) {
    Path asGiven = Path.of(workload);
    if (Files.isRegularFile(asGiven)) {
      return asGiven;
    }
    Path dir = home.resolve("workloads");
    Path named = dir.resolve(workload);
    if (!workload.contains("/") && Files.isRegularFile(named)) {
      return named;
    }
    String known;
    try (Stream<Path> s = Files.list(dir)) {
      known = s.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
          .sorted(String.CASE_INSENSITIVE_ORDER.thenComparing(java.util.Comparator.naturalOrder()))
          .filter(n -> !n.endsWith(".md")).collect(Collectors.joining(", "));
    } catch (IOException e) {
      known = "(workloads/ not found)";
    }
    throw new UserError("Unknown workload '" + workload + "': not a file, and not one of " + known);
  }
}
