package dev.ybbench.harness.run;

/**
 * The run started but what it measured cannot stand for what was asked: a table that is not
 * there, no successful operation, too many errors, a server gone for most of the window. The run
 * lifecycle records it as state {@code failed} with {@link #getMessage()} as the one-line reason
 * (in run.json and on the terminal) and exits 1. Unlike a {@link dev.ybbench.harness.UserError},
 * which is bad input found before anything starts (exit 2), a failure leaves a result directory
 * that says what happened.
 */
public class RunFailure extends RuntimeException {
  public RunFailure(String reason) {
    super(reason);
  }

  public RunFailure(String reason, Throwable cause) {
    super(reason, cause);
  }
}
