package dev.ybbench.ycsb.ycql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.ycsb.SharedCassandra;
import dev.ybbench.harness.run.RunFailure;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A run that does not load, against a real one-node Cassandra: it needs the keyspace and the table. */
class YcqlSetupIT {
  private static EmbeddedCassandra cassandra;

  @BeforeAll
  static void startServer() {
    cassandra = SharedCassandra.node();
  }


  private static YcqlConfig config(String keyspace, String table) {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, cassandra.hostList());
    p.setProperty(YcqlConfig.DIALECT, "CASSANDRA");
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    p.setProperty(YcqlConfig.KEYSPACE, keyspace);
    p.setProperty("table", table);
    return YcqlConfig.from(p);
  }

  @Test
  void aMissingKeyspaceOrTableFailsTheRunAndALoadedOneIsUsed() {
    RunFailure keyspace = assertThrows(RunFailure.class,
        () -> YcqlSetup.useExistingSchema(config("never_loaded", "usertable")));
    assertEquals("keyspace never_loaded does not exist on " + cassandra.hostList()
        + "; load it first (--phase load or both)", keyspace.getMessage());

    YcqlSetup.createSchema(config("loaded", "usertable"), null, s -> { }, stop -> { }).close();
    YcqlSetup.useExistingSchema(config("loaded", "usertable")).close();
    RunFailure table = assertThrows(RunFailure.class, () -> YcqlSetup.useExistingSchema(config("loaded", "other")));
    assertEquals("table other does not exist in keyspace loaded on " + cassandra.hostList()
        + "; load it first (--phase load or both)", table.getMessage());
  }

  @Test
  void aTableAnotherRunUsesIsNotRecreatedUnderIt() {
    YcqlSetup.createSchema(config("claimed", "usertable"), null, s -> { }, stop -> { }).close();
    try (CqlTableClaim reader = YcqlSetup.useExistingSchema(config("claimed", "usertable"))) {
      UserError refused = assertThrows(UserError.class,
          () -> YcqlSetup.createSchema(config("claimed", "usertable"), null, s -> { }, stop -> { }));
      assertEquals("table usertable in keyspace claimed is in use by another run; wait for it to finish (or up to 30 s "
          + "after a killed run) or use another --database", refused.getMessage());
      // Readers share the table.
      YcqlSetup.useExistingSchema(config("claimed", "usertable")).close();
    }
    // Once the other run lets go, the table can be made afresh.
    YcqlSetup.createSchema(config("claimed", "usertable"), null, s -> { }, stop -> { }).close();
  }
}
