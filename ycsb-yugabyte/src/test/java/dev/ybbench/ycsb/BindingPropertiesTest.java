package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.ycsb.client.BindingProperties;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BindingPropertiesTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void coreWorkloadLooksAtWhatItReadsOnlyWhenItVerifiesIt() {
    assertFalse(BindingProperties.valuesRead(props("workload", "site.ycsb.workloads.CoreWorkload")));
    assertFalse(BindingProperties.valuesRead(props("workload", dev.ybbench.ycsb.workload.CoreWorkload64.class.getName())));
    assertTrue(BindingProperties.valuesRead(props("workload", "site.ycsb.workloads.CoreWorkload",
        "dataintegrity", "true")));
  }

  @Test
  void anotherWorkloadOrNoneIsAssumedToLook() {
    assertTrue(BindingProperties.valuesRead(props("workload", "site.ycsb.workloads.RestWorkload")));
    assertTrue(BindingProperties.valuesRead(props()));
  }
}
