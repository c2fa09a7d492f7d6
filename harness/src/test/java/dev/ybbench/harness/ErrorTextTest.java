package dev.ybbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ErrorTextTest {
  @TempDir
  Path dir;

  @Test
  void whyAFileCannotBeMadeInWords() throws Exception {
    assertEquals("permission denied", ErrorText.whyNot(new AccessDeniedException("/x")));
    assertEquals("a file of that name exists", ErrorText.whyNot(new FileAlreadyExistsException("/x")));
    assertEquals("nothing can be made there (no such file or directory)",
        ErrorText.whyNot(new NoSuchFileException("/proc/x")));
    assertEquals("Not a directory", ErrorText.whyNot(new FileSystemException("/etc/passwd/x", null,
        "Not a directory")));
    assertEquals("not a place files can be made", ErrorText.whyNot(new FileSystemException("/x")));
    assertEquals("disk full", ErrorText.whyNot(new IOException("disk full.\nmore")));
    // A real one: a directory under a file.
    Path file = Files.writeString(dir.resolve("f"), "");
    IOException real = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> Files.createDirectories(file.resolve("sub")));
    assertEquals(real instanceof FileAlreadyExistsException ? "a file of that name exists" : "Not a directory",
        ErrorText.whyNot(real));
  }
}
