package dev.ybbench.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLinesTest {
  @Test
  void aMisspeltFlagGetsTheNearestKnownOnes() {
    List<String> known = List.of("--threads", "--target", "--records", "--read-threads", "-p", "-P", "--help");
    assertEquals(1, CommandLines.distance("--treads", "--threads"));
    assertEquals(3, CommandLines.distance("kitten", "sitting"));
    assertEquals(List.of("--threads"), CommandLines.nearest("--treads", known));
    assertEquals(List.of("--records"), CommandLines.nearest("--record", known));
    assertEquals(List.of(), CommandLines.nearest("--no-such-flag", known));
    assertEquals(List.of(), CommandLines.nearest("-x", known), "a one-letter flag has no near miss");
    assertEquals(List.of("--read-threads"), CommandLines.nearest("--read-thread", known));
  }
}
