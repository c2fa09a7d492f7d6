package dev.ybbench.harness.results;

import dev.ybbench.harness.FileTrees;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.BooleanSupplier;

/**
 * A directory of derived output (a merged run, a comparison) that appears whole or not at all.
 * Its files are written under a hidden sibling, {@code .NAME.partial-PID}, and renamed into place by
 * {@link #commit()}; a stop asked for in between (Ctrl-C) ends the writing at the next
 * {@link #checkpoint()}, and {@link #close()} removes what was written. So no reader — compare.sh
 * looking for a label, a merge, a person — finds a merged run or a comparison with half its
 * files, and Ctrl-C does not wait for charts nobody will read. A {@code kill -9} leaves only the
 * hidden directory, which readers skip and the next writer of the same name removes.
 */
public final class StagedDirectory implements AutoCloseable {
  /** Thrown by {@link #checkpoint} once a stop has been asked for. */
  public static final class Stopped extends RuntimeException {
    private Stopped() {
      super("stopped", null, false, false);
    }
  }

  private final Path target;
  private final Path staging;
  private final boolean claimed;
  private final BooleanSupplier stop;
  private boolean committed;

  private StagedDirectory(Path target, boolean claimed, BooleanSupplier stop) throws IOException {
    this.target = target;
    this.claimed = claimed;
    this.stop = stop;
    String prefix = "." + target.getFileName() + ".partial-";
    this.staging = target.resolveSibling(prefix + ProcessHandle.current().pid());
    Files.createDirectories(staging.getParent());
    removeLeftovers(staging.getParent(), prefix);
    Files.createDirectories(staging);
  }

  /** A killed writer's staging for the same name; another live process's is left alone. */
  private static void removeLeftovers(Path parent, String prefix) throws IOException {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, p -> p.getFileName().toString()
        .startsWith(prefix))) {
      for (Path d : dirs) {
        String pid = d.getFileName().toString().substring(prefix.length());
        if (pid.matches("\\d{1,19}") && ProcessHandle.of(Long.parseLong(pid)).map(h -> !h.isAlive()).orElse(true)) {
          FileTrees.delete(d);
        }
      }
    }
  }

  /**
   * For {@code target}, which may exist (a {@code --out} given twice): the files replace those of
   * the same name there, each whole.
   */
  public static StagedDirectory forTarget(Path target, BooleanSupplier stop) throws IOException {
    return new StagedDirectory(target, false, stop);
  }

  /**
   * For {@code claimed}, an empty directory the caller has just created to own its name (two
   * writers in one second must not share it): replaced by the staged one on commit, removed if
   * stopped.
   */
  public static StagedDirectory forClaimed(Path claimed, BooleanSupplier stop) throws IOException {
    return new StagedDirectory(claimed, true, stop);
  }

  /** Where to write. */
  public Path path() {
    return staging;
  }

  /** Ends the writing with {@link Stopped} if a stop has been asked for; call between steps. */
  public void checkpoint() {
    checkpoint(stop);
  }

  /** As above, for the steps before the writing (reading the runs, the statistics). */
  public static void checkpoint(BooleanSupplier stop) {
    if (stop.getAsBoolean()) {
      throw new Stopped();
    }
  }

  /** Puts the staged files in place and returns the target. */
  public Path commit() throws IOException {
    checkpoint();
    if (!Files.exists(target) || claimed) {
      // rename(2): atomic, and it replaces an empty directory (the claimed name) in the same step.
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    } else {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(staging)) {
        for (Path f : files) {
          Path to = target.resolve(f.getFileName());
          if (Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
            FileTrees.delete(to);
          }
          Files.move(f, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
      }
      Files.delete(staging);
    }
    committed = true;
    return target;
  }

  /** Removes the staged files (and a claimed name) unless committed. */
  @Override
  public void close() {
    if (!committed) {
      FileTrees.delete(staging);
      if (claimed) {
        try {
          Files.deleteIfExists(target);
        } catch (IOException ignored) {
          // not empty: not ours to remove
        }
      }
    }
  }
}
