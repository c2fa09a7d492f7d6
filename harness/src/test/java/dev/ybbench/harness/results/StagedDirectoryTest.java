package dev.ybbench.harness.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Derived output that appears whole or not at all. */
class StagedDirectoryTest {
  @TempDir
  Path root;

  private List<String> names() throws Exception {
    try (Stream<Path> s = Files.list(root)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void nothingIsVisibleUntilTheCommitThenAllIs() throws Exception {
    Path target = root.resolve("cmp");
    try (StagedDirectory staged = StagedDirectory.forTarget(target, () -> false)) {
      Files.writeString(staged.path().resolve("report.md"), "# report\n");
      Files.createDirectories(staged.path().resolve("plots"));
      assertFalse(Files.exists(target));
      assertEquals(List.of(".cmp.partial-" + ProcessHandle.current().pid()), names());
      assertEquals(target, staged.commit());
    }
    assertEquals(List.of("cmp"), names());
    assertEquals("# report\n", Files.readString(target.resolve("report.md")));
    assertTrue(Files.isDirectory(target.resolve("plots")));
  }

  @Test
  void aStopEndsTheWritingAndLeavesNothing() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    Path claimed = Files.createDirectory(root.resolve("20260101T000000Z_ycsb_a-merged_PostgreSQL-17"));
    assertThrows(StagedDirectory.Stopped.class, () -> {
      try (StagedDirectory staged = StagedDirectory.forClaimed(claimed, stop::get)) {
        Files.writeString(staged.path().resolve("summary.json"), "{}");
        staged.checkpoint(); // not stopped yet: goes on
        stop.set(true);
        staged.checkpoint();
        staged.commit();
      }
    });
    assertEquals(List.of(), names(), "neither the staged files nor the claimed name are left");

    // Stopped just before the commit: the same.
    Path target = root.resolve("cmp");
    assertThrows(StagedDirectory.Stopped.class, () -> {
      try (StagedDirectory staged = StagedDirectory.forTarget(target, stop::get)) {
        Files.writeString(staged.path().resolve("report.md"), "x");
        staged.commit();
      }
    });
    assertEquals(List.of(), names());
  }

  @Test
  void aClaimedNameIsReplacedAndAnExistingTargetKeepsWhatItHolds() throws Exception {
    Path claimed = Files.createDirectory(root.resolve("merged"));
    try (StagedDirectory staged = StagedDirectory.forClaimed(claimed, () -> false)) {
      Files.writeString(staged.path().resolve("run.json"), "{}");
      staged.commit();
    }
    assertEquals("{}", Files.readString(claimed.resolve("run.json")));

    // --out to a directory that exists: the new files replace theirs, others stay.
    Path out = Files.createDirectory(root.resolve("out"));
    Files.writeString(out.resolve("report.md"), "old");
    Files.writeString(out.resolve("mine.txt"), "the user's");
    Files.createDirectories(out.resolve("charts"));
    Files.writeString(out.resolve("charts/old.svg"), "old");
    try (StagedDirectory staged = StagedDirectory.forTarget(out, () -> false)) {
      Files.writeString(staged.path().resolve("report.md"), "new");
      Files.createDirectories(staged.path().resolve("charts"));
      Files.writeString(staged.path().resolve("charts/new.svg"), "new");
      staged.commit();
    }
    assertEquals("new", Files.readString(out.resolve("report.md")));
    assertEquals("the user's", Files.readString(out.resolve("mine.txt")));
    assertEquals(List.of("new.svg"), Files.list(out.resolve("charts")).map(p -> p.getFileName().toString()).toList());
    assertEquals(List.of("merged", "out"), names());
  }

  @Test
  void aKilledWritersLeftoverGoesAndALiveOnesStays() throws Exception {
    // pid 2^22 + 1 is above Linux's largest pid, so no process has it; this JVM's parent is alive.
    Path dead = Files.createDirectories(root.resolve(".cmp.partial-4194305"));
    Files.writeString(dead.resolve("report.md"), "half");
    long parent = ProcessHandle.current().parent().orElseThrow().pid();
    Path live = Files.createDirectories(root.resolve(".cmp.partial-" + parent));
    try (StagedDirectory staged = StagedDirectory.forTarget(root.resolve("cmp"), () -> false)) {
      staged.commit();
    }
    assertFalse(Files.exists(dead));
    assertTrue(Files.exists(live));
  }
}
