package dev.ybbench.harness;

/**
 * An error as one line of output. Drivers and servers answer with messages of several lines
 * (hints, positions, every node's stack of causes); a run's reason, a status or a warning keeps
 * the first.
 */
public final class ErrorText {
  private ErrorText() {}

  /** The message's first line, without its trailing full stop; the exception's name when it has none. */
  public static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return m.strip().split("\n")[0].replaceAll("[.\\s]+$", "");
  }
}
