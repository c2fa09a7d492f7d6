package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/ybbench.json against what Grafana's dashboard schema (version 39, the one it
 * declares) requires of it: the fields each panel and variable must have, ids and refIds unique,
 * panels on the 24-column grid without overlapping, and every variable a query uses defined.
 * Its queries themselves are run against a real Prometheus by PrometheusIT.
 */
class DashboardTest {
  /** Grafana's own variables, which a dashboard uses without defining them. */
  private static final Set<String> GLOBALS = Set.of("__rate_interval", "__interval", "__range");

  @Test
  void theDashboardIsWhatItsSchemaVersionAsksFor() throws Exception {
    JsonNode d = new ObjectMapper().readTree(RunYcsbTest.HOME.resolve("deploy/grafana/ybbench.json").toFile());
    assertEquals(39, d.get("schemaVersion").asInt());
    for (String field : List.of("title", "uid", "panels", "templating", "time")) {
      assertTrue(d.has(field), "no " + field);
    }
    Set<String> variables = new HashSet<>();
    for (JsonNode v : d.at("/templating/list")) {
      assertTrue(v.hasNonNull("name") && v.hasNonNull("type"), "a variable without name or type: " + v);
      assertTrue(Set.of("datasource", "query", "custom", "constant", "interval").contains(v.get("type").asText()), v
          .toString());
      variables.add(v.get("name").asText());
    }
    Set<Integer> ids = new HashSet<>();
    List<int[]> cells = new ArrayList<>();
    Pattern variable = Pattern.compile("\\$\\{?([a-zA-Z_][a-zA-Z0-9_]*)");
    for (JsonNode p : d.get("panels")) {
      String what = p.path("title").asText();
      assertTrue(ids.add(p.get("id").asInt()), "id used twice: " + what);
      assertTrue(Set.of("row", "timeseries").contains(p.get("type").asText()), what);
      JsonNode g = p.get("gridPos");
      int x = g.get("x").asInt();
      int y = g.get("y").asInt();
      int w = g.get("w").asInt();
      int h = g.get("h").asInt();
      assertTrue(x >= 0 && w > 0 && h > 0 && x + w <= 24, what + ": off Grafana's 24-column grid");
      for (int[] c : cells) {
        assertFalse(x < c[0] + c[2] && c[0] < x + w && y < c[1] + c[3] && c[1] < y + h, what + " overlaps a panel");
      }
      cells.add(new int[] {x, y, w, h});
      if (p.get("type").asText().equals("row")) {
        continue;
      }
      assertEquals("prometheus", p.at("/datasource/type").asText(), what);
      assertFalse(p.path("targets").isEmpty(), what + " has no query");
      Set<String> refIds = new HashSet<>();
      for (JsonNode t : p.get("targets")) {
        assertTrue(refIds.add(t.get("refId").asText()), what + ": refId used twice");
        assertFalse(t.get("expr").asText().isBlank(), what);
        Matcher m = variable.matcher(t.get("expr").asText() + " " + p.at("/datasource/uid").asText());
        while (m.find()) {
          assertTrue(variables.contains(m.group(1)) || GLOBALS.contains(m.group(1)) || m.group(1).matches("\\d+"),
              what + " uses $" + m.group(1) + ", which the dashboard does not define");
        }
      }
    }
  }
}
