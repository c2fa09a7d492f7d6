package dev.ybbench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing a directory tree, as far as it can: what is left (a file in use) is removed by the next owner. */
public final class FileTrees {
  private FileTrees() {}

  public static void delete(Path root) {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // best effort, see above
        }
      });
    } catch (IOException | UncheckedIOException ignored) {
      // best effort: the walk meets files that go while it reads (a server removing its pid file
      // as it stops); the caller's next pass removes what is left
    }
  }
}
