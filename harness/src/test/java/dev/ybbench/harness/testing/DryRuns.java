package dev.ybbench.harness.testing;

/** What a dry run says beside the run it plans. */
public final class DryRuns {
  private DryRuns() {}

  /** The reason a results directory cannot be made, which only making it tells. */
  private static final String ANY_REASON = "(results directory \\S+): [^;]*;";

  /**
   * A refusal as a dry run and the run both give it: the same line, except that a dry run makes
   * no directory to learn why one cannot be made, so says why in its own words.
   */
  public static String refusal(String line) {
    return line.strip().replaceFirst(ANY_REASON, "$1: …;");
  }
}
