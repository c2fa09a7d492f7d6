package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe each run ends with: both parts ran, over the time asked (the tests' 0.1 s a part). */
class MachineProbeTest {
  @Test
  void bothPartsRunForTheirTime() {
    long start = System.nanoTime();
    Map<String, Object> probe = MachineProbe.take();
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(MachineProbe.PART_MS / 1000.0, probe.get("seconds_each"));
    assertTrue(seconds >= 2 * MachineProbe.PART_MS / 1000.0, "two parts of " + MachineProbe.PART_MS + " ms: " + seconds);
    assertTrue((Long) probe.get("cpu_units_per_s") > 0, probe.toString());
    assertEquals(Runtime.getRuntime().availableProcessors(), probe.get("cpu_threads"));
    assertTrue((Double) probe.get("loopback_rtt_us") > 0, probe.toString());
    assertTrue((Long) probe.get("loopback_round_trips") > 0, probe.toString());
  }
}
