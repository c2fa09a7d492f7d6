package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.RunInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same run as a ybbench command, printed as {@code As ybbench: …} when the command said
 * anything in YCSB's or yugabyte/YCSB's words ({@link YcsbSettings.Provenance#foreign()}), and as
 * a dry run's command: shell-quoted, to be pasted as it is, a password hidden.
 */
public final class EquivalentCommand {
  private EquivalentCommand() {}

  /**
   * The workload files, the flags given as they were ({@code nativeFlags}), a flag for each setting
   * a property of YCSB's or yugabyte/YCSB's gave, the nodes the environment named (so the command
   * means the same anywhere), and the {@code -p} that stand for no flag.
   */
  public static String of(YcsbSettings s, YcsbOptions o, List<String> nativeFlags, ServerTarget server) {
    YcsbSettings.Provenance p = s.provenance();
    List<String> words = new ArrayList<>(List.of("./run_ycsb.sh"));
    if (o.workload != null) {
      words.add(o.workload);
    }
    for (Path f : o.files) {
      words.add("-P");
      words.add(f.toString());
    }
    words.addAll(nativeFlags);
    p.translatedFlags().forEach((flag, value) -> {
      words.add(flag);
      words.add(value);
    });
    if (!server.embedded() && words.stream().noneMatch(w -> w.equals("--hosts") || w.startsWith("--hosts="))) {
      words.add("--hosts"); // from YSQL_NODES or YCQL_NODES
      words.add(server.hostSpec());
    }
    Map<String, String> rest = new LinkedHashMap<>();
    p.cli().forEach((name, value) -> {
      if (!p.consumed().contains(name) && !p.picked().contains(name)) {
        rest.put(name, value);
      }
    });
    p.translatedProperties().forEach(rest::putIfAbsent);
    rest.forEach((name, value) -> {
      words.add("-p");
      words.add(name + "=" + (RunInfo.isSecret(name) ? "***" : value));
    });
    return ShellWords.join(words);
  }
}
