package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import org.junit.jupiter.api.Test;

class ClientThreadsTest {
  @Test
  void oneOsThreadPerClientByDefault() throws Exception {
    ClientThreads t = ClientThreads.platform();
    assertEquals("", t.describe());
    assertEquals(0, t.jobs());
    boolean[] daemonless = new boolean[1];
    Thread th = t.newThread(() -> daemonless[0] = !Thread.currentThread().isDaemon(), "ycsb-run-0");
    assertEquals("ycsb-run-0", th.getName());
    th.start();
    th.join();
    assertTrue(daemonless[0]);
  }

  @Test
  void jobsBelowOneAreRefused() {
    UserError e = assertThrows(UserError.class, () -> ClientThreads.virtual(0, "--jobs"));
    assertEquals("--jobs must be at least 1, was 0", e.getMessage());
  }

  @Test
  void threadsOnAnEventLoopNeedJava21AndJavaLangOpened() {
    UserError e = assertThrows(UserError.class, () -> ClientThreads.checkScheduledBy("--driver vertx"));
    if (Runtime.version().feature() < 21) {
      assertEquals("--driver vertx runs the client threads as virtual threads, which need Java 21 or later; this is "
          + "Java " + Runtime.version().feature() + " (put a newer JDK's bin first on PATH, or leave --driver vertx "
          + "out)", e.getMessage());
    } else { // the tests' JVM does not open java.lang (the runner on JDK 21+ is EventLoopDriverIT's)
      assertTrue(e.getMessage().startsWith("--driver vertx schedules its client threads on its event loops, which "
          + "needs the JVM option --add-opens java.base/java.lang=ALL-UNNAMED"), e.getMessage());
    }
  }

  @Test
  void virtualThreadsNeedJava21() throws Exception {
    if (Runtime.version().feature() < 21) {
      UserError e = assertThrows(UserError.class, () -> ClientThreads.virtual(2, "--jobs"));
      assertEquals("--jobs runs the client threads as virtual threads, which need Java 21 or later; this is Java "
          + Runtime.version().feature() + " (put a newer JDK's bin first on PATH, or leave --jobs out)", e.getMessage());
      return;
    }
    // On a newer JVM (the runner on JDK 21+ is tested end to end in the YCSB module's VirtualThreadsIT).
    ClientThreads t = ClientThreads.virtual(2, "--jobs");
    assertEquals(", virtual on 2 OS threads", t.describe());
    Thread th = t.newThread(() -> { }, "ycsb-run-0");
    assertTrue((Boolean) Thread.class.getMethod("isVirtual").invoke(th));
    assertFalse(th.isAlive());
  }
}
