package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RunOptionsTest {
  @Test
  void withLabelCopiesEveryOptionButTheLabel() throws Exception {
    RunOptions o = new RunOptions();
    o.label = "parsed";
    o.resultsDir = Path.of("r");
    o.maxErrorPct = 2;
    o.maxAbortPct = 3;
    o.maxOutagePct = 4;
    o.serverIntervalS = 5;
    o.metricsPorts = "9000";
    o.prometheusPort = 6;
    o.history = "h.db";
    o.confirm = 4;
    o.verbose = true;
    o.noInstall = true;
    RunOptions c = o.withLabel("settled");
    assertNotSame(o, c);
    assertEquals("settled", c.label);
    assertEquals("parsed", o.label, "the options parsed stay as they were");
    for (Field f : RunOptions.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers()) && !f.getName().equals("label")) {
        assertEquals(f.get(o), f.get(c), f.getName()); // an option added later must be copied too
      }
    }
  }

  @Test
  void confirmWantsAHistoryAndAtLeastOneRun() {
    RunOptions o = new RunOptions();
    o.confirm = 4;
    assertEquals("--confirm judges the run against its history: give --history FILE|URL too",
        assertThrows(UserError.class, o::limits).getMessage());
    o.history = "h.db";
    o.confirm = 0;
    assertEquals("--confirm must be at least 1 more run, was 0", assertThrows(UserError.class, o::limits)
        .getMessage());
  }
}
