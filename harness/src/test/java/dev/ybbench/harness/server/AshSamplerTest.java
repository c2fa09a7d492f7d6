package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * YugabyteDB's ASH rows as its docs show them (docs/content/stable/explore/observability/
 * active-session-history.md: each query_id's wait events and their counts), each event's class
 * from the same docs' tables of wait events by class: the profile a phase's window of such rows
 * makes.
 */
class AshSamplerTest {
  private static final long UPDATE_ID = -1970690938654296136L;
  private static final long SELECT_ID = 6107501747146929242L;
  private static final String UPDATE = "UPDATE test_table set v = v + $1 where k = $2";
  private static final String SELECT = "SELECT v FROM test_table WHERE k = $1";

  private static String resource(String name) throws IOException {
    try (InputStream in = AshSamplerTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Each wait event's class, from the docs' "#### X class" sections and their tables' first column. */
  static Map<String, String> classes() throws IOException {
    Map<String, String> out = new HashMap<>();
    String cls = null;
    for (String line : resource("yugabyte-ash-wait-event-classes.md").split("\n")) {
      if (line.startsWith("#### ") && line.endsWith(" class")) {
        cls = line.substring(5, line.length() - " class".length());
      } else if (cls != null && line.startsWith("| ") && !line.startsWith("| Wait Event") && !line.startsWith("| :")) {
        out.putIfAbsent(line.split("\\|")[1].strip(), cls);
      }
    }
    return out;
  }

  /** The docs' rows: query_id | component | wait_event | wait_event_type | count, with each event's class. */
  static List<AshSampler.Row> rows() throws IOException {
    Map<String, String> classes = classes();
    List<AshSampler.Row> rows = new ArrayList<>();
    for (String line : resource("yugabyte-ash-by-query-id.txt").split("\n")) {
      String[] f = line.split("\\|");
      if (f.length == 5 && f[0].strip().matches("-?\\d+")) {
        String event = f[2].strip();
        rows.add(new AshSampler.Row(Long.parseLong(f[0].strip()), classes.get(event), event,
            Double.parseDouble(f[4].strip())));
      }
    }
    return rows;
  }

  @Test
  void theDocsRowsMakeAProfileByStatementEachEventUnderItsClass() throws IOException {
    List<AshSampler.Row> rows = rows();
    assertEquals(19, rows.size());
    Map<Long, String> ids = Map.of(UPDATE_ID, UPDATE, SELECT_ID, SELECT);
    WaitProfile p = AshSampler.profile("yb_active_session_history of 1 node", rows, ids::get);
    Map<String, Double> update = new LinkedHashMap<>();
    update.put("Common:OnCpu_Active", 1130.0); // the YSQL backend's 1,023 and the tserver's 107
    update.put("Consensus:Raft_WaitingForReplication", 194.0);
    update.put("Common:OnCpu_Passive", 144.0);
    update.put("Consensus:Raft_ApplyingEdits", 54.0);
    update.put("Common:Rpc_Done", 18.0);
    update.put("TabletWait:ConflictResolution_ResolveConficts", 18.0);
    update.put("RocksDB:RocksDB_NewIterator", 6.0);
    update.put("TabletWait:MVCC_WaitForSafeTime", 5.0);
    assertEquals(update, p.statements().get(UPDATE));
    assertEquals(List.copyOf(update.keySet()), List.copyOf(p.statements().get(UPDATE).keySet()));
    assertEquals(Map.of("TServerWait:TableRead", 658.0, "Common:OnCpu_Active", 493.0, "Common:Rpc_Done", 15.0,
        "TabletWait:MVCC_WaitForSafeTime", 10.0, "RocksDB:RocksDB_NewIterator", 5.0, "TServerWait:CatalogRead", 1.0),
        p.statements().get(SELECT));
    // query_id 0 is a query whose id was not computed: the benchmark's, unnamed. The id no statement of
    // the benchmark's database has (another database's, or the harness's own) is left out.
    assertEquals(Map.of("Common:OnCpu_Passive", 10.0, "Common:OnCpu_Active", 9.0), p.unattributed());
    assertEquals(1569.0 + 1182.0 + 19.0, p.samples());
    assertEquals(Math.round(1000.0 * (1130 + 144 + 493 + 19) / 2770) / 10.0, p.onCpuPct());
    assertNull(p.background());
  }

  @Test
  void yugabytesOwnWorkIsTheBackgroundsAndNotTheStatements() {
    List<AshSampler.Row> rows = List.of(new AshSampler.Row(3, "RocksDB", "RocksDB_ReadBlockFromFile", 4),
        new AshSampler.Row(1, "Consensus", "WAL_Append", 2), new AshSampler.Row(5, "Common", "OnCpu_Active", 1));
    WaitProfile p = AshSampler.profile("ash", rows, id -> null);
    assertEquals(Map.of("RocksDB:RocksDB_ReadBlockFromFile", 4.0, "Consensus:WAL_Append", 2.0), p.background());
    assertEquals(Map.of("Common:OnCpu_Active", 1.0), p.unattributed());
    assertEquals(1.0, p.samples());
  }
}
