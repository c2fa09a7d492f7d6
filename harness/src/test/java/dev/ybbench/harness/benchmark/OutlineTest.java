package dev.ybbench.harness.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ybbench.harness.run.RunOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutlineTest {
  private static Outline outline(List<Outline.Phase> phases) {
    return new Outline("embedded PostgreSQL 17.11.0", "off", "ycsb as postgres", List.of("usertable: created"),
        "8", List.of(), phases, null);
  }

  @Test
  void theWallTimeAddsThePhasesAndNamesThoseOnlyTheRunCanTime() {
    assertEquals("at least 95 s, plus the time of the load and the check, which only the run can tell",
        outline(List.of(Outline.Phase.untimed("load", "10 rows"), Outline.Phase.timed("warmup", "", 5),
            Outline.Phase.timed("run", "", 90), Outline.Phase.untimed("check", ""))).wallTime());
    assertEquals("the time of the load, which only the run can tell",
        outline(List.of(Outline.Phase.untimed("load", "10 rows"))).wallTime());
    assertEquals("1 h 00 min 01 s of phases, beside the server's start and the tables' setup",
        outline(List.of(Outline.Phase.timed("run", "", 3601))).wallTime());
  }

  @Test
  void secondsReadAsAClock() {
    assertEquals("0 s", Outline.seconds(0.2));
    assertEquals("119 s", Outline.seconds(119));
    assertEquals("2 min 00 s", Outline.seconds(120));
    assertEquals("59 min 59 s", Outline.seconds(3599));
    assertEquals("25 h 00 min 00 s", Outline.seconds(90_000));
  }

  @Test
  void theCommandIsQuotedForAShellWithoutItsDryRunOrPassword() {
    assertEquals("./run_tpcc.sh --label 'rc 2.25' --password '***' --url-options 'a=1&password=***'",
        Outline.command("run_tpcc.sh", List.of("--label", "rc 2.25", "--dry-run", "--password", "s3cret",
            "--url-options", "a=1&password=s3cret")));
  }

  @Test
  void theRunOptionsFollowTheOutline() {
    RunOptions run = new RunOptions();
    run.label = "rc";
    run.prometheusPort = 0;
    run.maxErrorPct = 1;
    List<String> lines = outline(List.of(Outline.Phase.timed("run", "workloadc", 60)))
        .lines(run, "run_ycsb.sh", List.of("workloadc", "--dry-run"));
    assertEquals(List.of("target: embedded PostgreSQL 17.11.0, TLS off", "database: ycsb as postgres",
        "schema: usertable: created", "connections: 8", "reads: no HTTP endpoint",
        "serves: http://HOST:PORT/metrics for Prometheus (any free port, printed as it starts)",
        "phase.run: workloadc (60 s)", "wall_time: 60 s of phases, beside the server's start and the tables' setup",
        "command: ./run_ycsb.sh workloadc", "label: rc", "results: results/",
        "limits: errors 1.0 %, aborts 0.0 %, outage 0.0 %, server readings every 0.0 s, no wait profile"), lines);
  }
}
