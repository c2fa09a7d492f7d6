package dev.ybbench.ycsb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Stream;

/**
 * A process's OS threads as the kernel names them ({@code /proc/PID/task/*}/comm, a trailing
 * number dropped), gathered every 50 ms while it runs: what shows whether client threads are OS
 * threads or virtual ones.
 */
final class OsThreads {
  private final Set<String> names = new ConcurrentSkipListSet<>();
  private final Thread watcher;

  private OsThreads(Process p) {
    watcher = new Thread(() -> {
      Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
      while (p.isAlive()) {
        try (Stream<Path> s = Files.list(tasks)) {
          s.forEach(t -> {
            try {
              names.add(Files.readString(t.resolve("comm")).strip().replaceAll("-?\\d+$", ""));
            } catch (IOException e) {
              // the thread ended
            }
          });
          Thread.sleep(50);
        } catch (IOException | InterruptedException e) {
          return;
        }
      }
    });
    watcher.start();
  }

  /** Starts watching {@code p}. */
  static OsThreads of(Process p) {
    return new OsThreads(p);
  }

  /** The names seen, once the process has ended. */
  Set<String> names() throws InterruptedException {
    watcher.join();
    return names;
  }
}
