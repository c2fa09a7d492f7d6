package dev.ybbench.harness;

/**
 * A problem the user can fix: a bad flag, an unknown version, an unreachable host.
 * Entry points print {@link #getMessage()} as one line and exit non-zero, without a stack trace
 * (unless --verbose). The message says what is wrong and what to do.
 */
public class UserError extends RuntimeException {
  public UserError(String message) {
    super(message);
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
  }
}
