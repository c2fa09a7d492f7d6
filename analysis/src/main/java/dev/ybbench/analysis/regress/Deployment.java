package dev.ybbench.analysis.regress;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.Console;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * --deploy-cmd: a shell command, {version} replaced by a build's name, that deploys that build's
 * cluster and prints its hosts (host[:port],…) on its last line; each build is deployed once and
 * its hosts kept. regress.sh --bisect deploys its builds with it, compare.sh --confirm the previous
 * build of its control rounds.
 */
public final class Deployment {
  private final Console console;
  private final Regress.Runner runner;
  private final String command;
  private final Map<String, String> deployed = new HashMap<>();

  /** @param runner runs the command ({@code bash -c}) */
  Deployment(Console console, Regress.Runner runner, String command) {
    this.console = console;
    this.runner = runner;
    this.command = command;
  }

  /** Deployed by {@code bash -c}, its output shown only when it fails. */
  public static Deployment byShell(Console console, String command) {
    return new Deployment(console, BenchmarkProcess::run, command);
  }

  /** The hosts of {@code version}'s cluster, deployed now if not before. */
  public String hosts(String version) throws IOException, InterruptedException {
    String hosts = deployed.get(version);
    if (hosts == null) {
      String cmd = command.replace("{version}", version);
      console.line("Deploying " + version + ": " + cmd);
      Regress.Outcome o = runner.run(List.of("bash", "-c", cmd));
      String last = o.lastLines().isEmpty() ? "" : o.lastLines().get(o.lastLines().size() - 1).strip();
      if (o.exitCode() != 0 || last.isEmpty()) {
        o.lastLines().forEach(console::line);
        throw new UserError("--deploy-cmd for " + version + " exited " + o.exitCode() + (last.isEmpty()
            ? " and printed no hosts" : "") + "; it must print the cluster's hosts (host[:port],…) on its last line");
      }
      hosts = last;
      deployed.put(version, hosts);
    }
    return hosts;
  }
}
