package dev.ybbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostListTest {
  @Test
  void defaultPortFillsTheGaps() {
    HostList h = HostList.parse("n1, n2:5434,10.0.0.3", 5433);
    assertEquals(List.of(new HostList.HostPort("n1", 5433), new HostList.HostPort("n2", 5434),
        new HostList.HostPort("10.0.0.3", 5433)), h.hosts());
    assertEquals("n1:5433,n2:5434,10.0.0.3:5433", h.toString());
  }

  @Test
  void ipv6InBrackets() {
    assertEquals("[::1]:9042", HostList.parse("[::1]", 9042).toString());
    assertEquals("[::1]:9000", HostList.parse("[::1]:9000", 9042).toString());
  }

  @Test
  void badPortsAndEmptyListsAreClearErrors() {
    assertEquals("Bad port in host 'n1:99999'; use host[:port] with a port from 1 to 65535",
        assertThrows(UserError.class, () -> HostList.parse("n1:99999", 5433)).getMessage());
    assertEquals("The host list ' , ' names no host; give --hosts host[:port],…",
        assertThrows(UserError.class, () -> HostList.parse(" , ", 5433)).getMessage());
    assertEquals("The host list takes host[:port],…, not a URL: give '10.0.0.1:5433' for 'http://10.0.0.1:5433'",
        assertThrows(UserError.class, () -> HostList.parse("http://10.0.0.1:5433", 5433)).getMessage());
    assertEquals("The host list takes host[:port],…, not a URL: give 'h2:5433' for "
        + "'jdbc:postgresql://h2:5433/ycsb?ssl=true'",
        assertThrows(UserError.class, () -> HostList.parse("h1,jdbc:postgresql://h2:5433/ycsb?ssl=true", 5433))
            .getMessage());
  }
}
