package dev.ybbench.ycsb.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import org.junit.jupiter.api.Test;

/** YCSB's and bin/ycsb's command lines in ybbench's words: exact rewrites, and refusals by name. */
class YcsbCommandLineTest {
  @Test
  void binYcsbLoadAndRunNameThePhaseAndTheBinding() {
    assertArrayEquals(new String[] {"-p", "dotransactions=false", "-p", "db=site.ycsb.db.JdbcDBClient", "-P",
        "yugabyteSQL/db.properties", "-P", "workloads/workloada", "-p", "status=true", "-p", "threadcount=32"},
        YcsbCommandLine.translate(new String[] {"load", "yugabyteSQL", "-P", "yugabyteSQL/db.properties", "-P",
            "workloads/workloada", "-s", "-threads", "32"}));
    assertArrayEquals(new String[] {"-p", "dotransactions=true", "-p", "db=site.ycsb.db.CassandraCQLClient", "-P",
        "db.properties", "-p", "target=300", "-p", "maxexecutiontime=180"},
        YcsbCommandLine.translate(new String[] {"run", "yugabyteCQL", "-P", "db.properties", "-target", "300", "-p",
            "maxexecutiontime=180"}));
    assertArrayEquals(new String[] {"-p", "dotransactions=false", "-p", "db=site.ycsb.db.JdbcDBClient", "-p",
        "yb.layout=hash-range"}, YcsbCommandLine.translate(new String[] {"load", "yugabyteSQL2Keys"}));
  }

  @Test
  void clientFlagsBecomeTheirProperties() {
    assertArrayEquals(new String[] {"workloada", "-p", "dotransactions=true", "-p", "dotransactions=false", "-p",
        "db=site.ycsb.db.JdbcDBClient", "-p", "label=rc1", "--hosts", "h"},
        YcsbCommandLine.translate(new String[] {"workloada", "-t", "-load", "-db", "site.ycsb.db.JdbcDBClient", "-l",
            "rc1", "--hosts", "h"}));
  }

  @Test
  void ybbenchsOwnLineIsUnchanged() {
    String[] ours = {"workloada", "--threads", "4", "-p", "fieldcount=2", "-P", "x"};
    assertArrayEquals(ours, YcsbCommandLine.translate(ours));
  }

  @Test
  void whatHasNoMeaningHereIsRefusedByName() {
    assertEquals("'basic' is not a binding ybbench has; use one of cassandra-cql, jdbc, yugabyteCQL, yugabyteSQL, "
        + "yugabyteSQL2Keys", assertThrows(UserError.class,
            () -> YcsbCommandLine.translate(new String[] {"load", "basic"})).getMessage());
    assertEquals("bin/ycsb shell is YCSB's interactive shell; ybbench runs workloads: give load or run",
        assertThrows(UserError.class, () -> YcsbCommandLine.translate(new String[] {"shell", "yugabyteSQL"}))
            .getMessage());
    assertEquals("bin/ycsb's -jvm-args sets up YCSB's own JVM; ybbench's takes options from YBBENCH_JAVA_OPTS and "
        + "needs no classpath", assertThrows(UserError.class,
            () -> YcsbCommandLine.translate(new String[] {"workloada", "-jvm-args", "-Xmx1g"})).getMessage());
    assertEquals("YCSB's -threads needs a value", assertThrows(UserError.class,
        () -> YcsbCommandLine.translate(new String[] {"workloada", "-threads"})).getMessage());
  }
}
