package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Which YCSB workload file a run means: -P FILE, a path, or a name in workloads/. */
final class WorkloadFiles {
  private WorkloadFiles() {}

  /** The file's properties, as YCSB's -P reads them. */
  static Properties read(Path file) throws IOException {
    Properties props = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      props.load(in);
    }
    return props;
  }

  /** The file; an unknown one is a one-line error listing the workloads shipped. */
  static Path resolve(String workload, Path workloadFileOption, Path home) {
    if (workloadFileOption != null) {
      if (workload != null) {
        throw new UserError("Give the workload once: either WORKLOAD or -P FILE, not both");
      }
      if (!Files.isRegularFile(workloadFileOption)) {
        throw new UserError("Workload file " + workloadFileOption + " does not exist");
      }
      return workloadFileOption;
    }
    if (workload == null) {
      throw new UserError("Name a workload, e.g. ./run_ycsb.sh workloada (see --help)");
    }
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
      known = s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted()
          .filter(n -> !n.endsWith(".md")).collect(Collectors.joining(", "));
    } catch (IOException e) {
      known = "(workloads/ not found)";
    }
    throw new UserError("Unknown workload '" + workload + "': not a file, and not one of " + known);
  }
}
