package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** YCSB properties checked before anything starts, with the exact line a user reads. */
class WorkloadCheckTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    p.setProperty("recordcount", "1000");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static String refusal(String... kv) {
    return assertThrows(UserError.class, () -> WorkloadCheck.check(props(kv), true)).getMessage();
  }

  @Test
  void countsMustBePositive() {
    assertEquals("recordcount=0 must be at least 1", refusal("recordcount", "0"));
    assertEquals("recordcount=-5 must be at least 1", refusal("recordcount", "-5"));
    assertEquals("insertcount=0 must be at least 1", refusal("insertcount", "0"));
    assertEquals("fieldcount=0 must be at least 1", refusal("fieldcount", "0"));
    assertEquals("operationcount=-1 must be at least 0", refusal("operationcount", "-1"));
  }

  @Test
  void numbersMustBeNumbers() {
    assertEquals("fieldcount=abc is not a whole number", refusal("fieldcount", "abc"));
    assertEquals("recordcount=1e6 is not a whole number", refusal("recordcount", "1e6"));
    assertEquals("readproportion=half is not a number", refusal("readproportion", "half"));
    assertEquals("target=-10.0 cannot be negative; leave it out for no cap", refusal("target", "-10.0"));
  }

  @Test
  void proportionsAndChoices() {
    assertEquals("readproportion=1.5 must lie between 0 and 1", refusal("readproportion", "1.5"));
    assertEquals("requestdistribution=zipf is not one of uniform, zipfian, latest, hotspot, sequential, exponential",
        refusal("requestdistribution", "zipf"));
    assertEquals("Every operation proportion is 0 (readproportion, updateproportion, insertproportion, "
        + "scanproportion, readmodifywriteproportion): the run would do nothing",
        refusal("readproportion", "0", "updateproportion", "0"));
    assertEquals("insertstart=900 plus insertcount=200 exceeds recordcount=1000: the slice to load must lie within "
        + "the records", refusal("insertstart", "900", "insertcount", "200"));
  }

  @Test
  void keyNumbersPastThirtyTwoBitsAreTaken() {
    assertEquals(List.of(), WorkloadCheck.check(props("recordcount", "30000000000", "insertstart", "29999990000",
        "insertcount", "10000", "operationcount", "50000000000"), true));
  }

  @Test
  void aMixThatDoesNotSumToOneIsStatedAsTheEffectiveMix() {
    assertEquals(List.of("the operation proportions sum to 1.2, not 1; YCSB draws by weight, so the effective mix is "
        + "read 50 %, update 50 %"), WorkloadCheck.check(props("readproportion", "0.6", "updateproportion", "0.6"),
        true));
    assertEquals(List.of(), WorkloadCheck.check(props("readproportion", "0.5", "updateproportion", "0.5"), true));
    // A load alone never runs the mix.
    assertEquals(List.of(), WorkloadCheck.check(props("readproportion", "0", "updateproportion", "0"), false));
  }
}
