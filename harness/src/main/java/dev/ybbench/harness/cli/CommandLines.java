package dev.ybbench.harness.cli;

import dev.ybbench.harness.UserError;
import java.io.PrintStream;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * How every entry point parses and reports: a bad flag or a {@link UserError} is one line on
 * stderr and exit code 2; anything else is one line and exit code 1, with the stack trace only
 * under --verbose.
 */
public final class CommandLines {
  private CommandLines() {}

  /**
   * @param command a picocli command
   * @param clean   hides secrets in messages
   * @param verbose whether --verbose was given (read after parsing)
   */
  public static int execute(Object command, String[] args, PrintStream err, UnaryOperator<String> clean,
      BooleanSupplier verbose) {
    CommandLine cl = new CommandLine(command);
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("error: " + clean.apply(String.valueOf(ex.getMessage())) + " (see --help)");
      return 2;
    });
    cl.setExecutionExceptionHandler((ex, c, parsed) -> {
      boolean user = ex instanceof UserError;
      String msg = ex.getMessage() != null ? ex.getMessage() : ex.toString();
      err.println("error: " + clean.apply(msg)
          + (user || verbose.getAsBoolean() ? "" : " (--verbose shows the stack trace)"));
      if (verbose.getAsBoolean()) {
        ex.printStackTrace(err);
      }
      return user ? 2 : 1;
    });
    return cl.execute(args);
  }
}
