package dev.ybbench.ycsb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.ServerTarget.Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The printed "As ybbench:" line: what YCSB's and yugabyte/YCSB's words became, in ybbench's flags, exactly. */
class EquivalentCommandTest {
  @TempDir
  Path dir;

  private YcsbSettings settle(YcsbOptions o, String... p) throws Exception {
    for (int i = 0; i < p.length; i += 2) {
      o.properties.put(p[i], p[i + 1]);
    }
    Path f = dir.resolve("workload");
    Files.write(f, List.of("workload=site.ycsb.workloads.CoreWorkload", "recordcount=1000"));
    return SettingSources.settle(o, List.of(f));
  }

  @Test
  void theEquivalentCommandSaysItInFlags() throws Exception {
    YcsbOptions o = new YcsbOptions();
    o.workload = "workloadc";
    YcsbSettings s = settle(o, "threadcount", "3", "db.url", "jdbc:postgresql://h:5433/x", "db.passwd", "secret",
        "requestdistribution", "uniform");
    assertTrue(s.provenance().foreign());
    assertEquals("./run_ycsb.sh workloadc --duration 9 --api ysql --threads 3 --batch-size 1 --hosts h:5433 "
        + "--database x --password '***' --driver pgjdbc -p requestdistribution=uniform",
        EquivalentCommand.of(s, o, List.of("--duration", "9"), ServerTarget.choose(s.api(), s.hosts(), null, 1)));
  }

  @Test
  void nodesNamedByTheEnvironmentAreSaidAndWordsQuoted() throws Exception {
    YcsbOptions o = new YcsbOptions();
    o.workload = "workloada";
    YcsbSettings s = settle(o, "fieldnameprefix", "my field", "ycql.read_consistency", "one");
    assertFalse(s.provenance().foreign(), "ybbench's own properties need no translation");
    // A server the settings did not name (YSQL_NODES): the command names it, as given.
    ServerTarget fromEnvironment = ServerTarget.choose(Api.YSQL, "n1,n2:5434", null, 1);
    assertEquals("./run_ycsb.sh workloada --threads 4 --hosts n1,n2:5434 -p 'fieldnameprefix=my field' "
        + "-p ycql.read_consistency=one", EquivalentCommand.of(s, o, List.of("--threads", "4"), fromEnvironment));
  }
}
