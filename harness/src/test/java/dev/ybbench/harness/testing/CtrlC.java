package dev.ybbench.harness.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A harness process as a user runs it in a terminal, for the Ctrl-C tests: started with SIGINT's
 * default action whatever this test JVM inherited, its output read as it comes, SIGINT sent as
 * Ctrl-C sends it.
 */
public final class CtrlC implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();

  private CtrlC(Process process) {
    this.process = process;
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String l; (l = out.readLine()) != null; ) {
          synchronized (lines) {
            lines.add(l);
            lines.notifyAll();
          }
        }
      } catch (IOException ignored) {
        // the process ended
      }
    }, "harness-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * The command with SIGINT's default action: a child inherits an ignored SIGINT (tests run from a
   * background job, under nohup or a runner that ignores it), and a JVM started so never sees
   * Ctrl-C. perl (Debian's essential perl-base) resets it, then becomes the command.
   */
  public static List<String> withDefaultAction(List<String> command) {
    List<String> out = new ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec {$ARGV[0]} @ARGV or die",
        "--"));
    out.addAll(command);
    return out;
  }

  /** A Java entry point of this test JVM's class path, as its script runs it. */
  public static CtrlC startJava(Class<?> main, Path home, List<String> args) throws IOException {
    return startJava(List.of(), main, home, args);
  }

  /** As above, with options for the JVM (e.g. another {@code -Djava.io.tmpdir}). */
  public static CtrlC startJava(List<String> jvmOptions, Class<?> main, Path home, List<String> args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + home));
    cmd.addAll(jvmOptions);
    cmd.add(main.getName());
    cmd.addAll(args);
    return new CtrlC(new ProcessBuilder(withDefaultAction(cmd)).redirectErrorStream(true).start());
  }

  /** Waits for a line the process prints; fails the test, naming what it printed, if none comes. */
  public void awaitLine(Predicate<String> wanted, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lines) {
      while (lines.stream().noneMatch(wanted)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          fail("the line waited for never came; the process printed:\n" + output());
        }
        lines.wait(Math.min(left, 100));
      }
    }
  }

  /** The harness's process id (perl execs it, so it is the one started). */
  public long pid() {
    return process.pid();
  }

  /** Ctrl-C. */
  public void send() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
  }

  /** The exit code, once the process has ended within {@code timeout}. */
  public int exitCode(Duration timeout) throws InterruptedException {
    assertTrue(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS), "still running after " + timeout
        + "; printed:\n" + output());
    return process.exitValue();
  }

  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /**
   * Holds a reader of {@code file} inside its read, as a slow disk would: {@code file} becomes a
   * named pipe, {@link Held#awaitReader} returns once a process has opened it, and
   * {@link Held#close()} then gives it the file's content. A step of the harness is so caught
   * half-way, every time.
   */
  public static Held hold(Path file) throws IOException, InterruptedException {
    byte[] content = Files.readAllBytes(file);
    Files.delete(file);
    assertTrue(new ProcessBuilder("mkfifo", file.toString()).start().waitFor() == 0, "mkfifo " + file);
    return new Held(file, content);
  }

  /** A file turned into a named pipe by {@link #hold}. */
  public static final class Held implements AutoCloseable {
    private final Path file;
    private final byte[] content;
    private OutputStream out;

    private Held(Path file, byte[] content) {
      this.file = file;
      this.content = content;
    }

    /** Returns once a process has opened the file to read it. */
    public void awaitReader(Duration timeout) throws Exception {
      // Opening a pipe to write blocks until a reader opens it.
      CompletableFuture<OutputStream> opened = CompletableFuture.supplyAsync(() -> {
        try {
          return new FileOutputStream(file.toFile());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      try {
        out = opened.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        new java.io.FileInputStream(file.toFile()).close(); // lets the blocked opener go
        throw new AssertionError("nothing read " + file + " within " + timeout);
      }
    }

    /** The reader gets the content and the end of the file. */
    @Override
    public void close() throws IOException {
      if (out != null) {
        try (OutputStream o = out) {
          out = null;
          o.write(content);
        }
      }
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
