package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BoundStatementsTest {
  @Test
  void parametersAreWrittenAsLiteralsInTheirPlaces() {
    assertEquals("SELECT * FROM usertable WHERE k1 = 42 AND k2 = 'user''s' AND \"a?\" = '?'",
        BoundStatements.render("SELECT * FROM usertable WHERE k1 = ? AND k2 = ? AND \"a?\" = '?'",
            List.of(42L, "user's")));
  }
}
