package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.results.Console;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What a benchmark's command knows of its invocation beside its flags.
 *
 * @param home    the repository (workloads/, configs), where results/ is by default
 * @param console where it prints
 * @param command the command line as it runs, after any translation (run.json records it)
 * @param onStop  what Ctrl-C (or SIGTERM) is to stop, for an action of the command's own that
 *                starts processes ({@link BenchmarkCommand#instead}); a run's lifecycle sets its own
 * @param stopped whether Ctrl-C has come
 */
public record Context(Path home, Console console, List<String> command, Consumer<Runnable> onStop,
    BooleanSupplier stopped) {}
