package dev.ybbench.harness;

/**
 * An error as one line of output. Drivers and servers answer with messages of several lines
 * (hints, positions, every node's stack of causes); a run's reason, a status or a warning keeps
 * the first.
 */
public final class ErrorText {
  private ErrorText() {}

  /**
   * Why a file or directory could not be made or written, in words ("permission denied"): a
   * FileSystemException's message is often the path alone (e.g. under /proc).
   */
  public static String whyNot(java.io.IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileAlreadyExistsException) {
      return "a file of that name exists";
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      // Missing parents are made first, so this is a place that takes none (e.g. under /proc).
      return "nothing can be made there (no such file or directory)";
    }
    if (e instanceof java.nio.file.FileSystemException f) {
      return f.getReason() != null ? f.getReason() : "not a place files can be made";
    }
    return firstLine(e);
  }

  /** The message's first line, without its trailing full stop; the exception's name when it has none. */
  public static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return m.strip().split("\n")[0].replaceAll("[.\\s]+$", "");
  }
}
