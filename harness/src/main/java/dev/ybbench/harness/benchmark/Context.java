package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.results.Console;
import java.nio.file.Path;
import java.util.List;

/**
 * What a benchmark's command knows of its invocation beside its flags.
 *
 * @param home    the repository (workloads/, configs), where results/ is by default
 * @param console where it prints
 * @param command the command line as it runs, after any translation (run.json records it)
 */
public record Context(Path home, Console console, List<String> command) {}
