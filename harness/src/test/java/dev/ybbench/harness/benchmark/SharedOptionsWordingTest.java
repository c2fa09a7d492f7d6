package dev.ybbench.harness.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every --help says a shared server option's default in the same words: ServerOptions' own, and
 * each benchmark's resource bundle (every module's {@code *Command.properties}) where it names the
 * benchmark's own default first.
 */
class SharedOptionsWordingTest {
  /** The option's key, and the words each description of it carries. */
  private static final Map<String, String> SAME = Map.of(
      "hosts", "none given: an embedded ",
      "user", "; postgres on the embedded server)",
      "password", "never written to results",
      "url-options", "; only with --hosts: the embedded server has no TLS",
      "db-version", "(default: 17)");

  @Test
  void everyHelpSaysASharedDefaultTheSameWay() throws Exception {
    List<String> checked = new ArrayList<>();
    CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.forAnnotatedObject(new Holder());
    for (Map.Entry<String, String> e : SAME.entrySet()) {
      String own = String.join(" ", spec.findOption("--" + e.getKey()).description());
      assertTrue(own.contains(e.getValue()), "ServerOptions --" + e.getKey() + ": " + own);
    }
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> bundles = new ArrayList<>();
    // Each module's sources only: the build's output (target/) changes under a walk while tests run.
    try (Stream<Path> modules = Files.list(root)) {
      for (Path main : modules.map(m -> m.resolve("src").resolve("main")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(main)) {
          files.filter(p -> p.getFileName().toString().endsWith("Command.properties")).forEach(bundles::add);
        }
      }
    }
    for (Path f : bundles) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
        p.load(r);
      }
      for (Map.Entry<String, String> e : SAME.entrySet()) {
        String text = p.getProperty(e.getKey());
        if (text != null) {
          assertTrue(text.contains(e.getValue()), f.getFileName() + " " + e.getKey() + ": " + text);
          checked.add(f.getFileName() + " " + e.getKey());
        }
      }
    }
    assertEquals(19, checked.size(), "the four benchmarks' bundles: " + checked);
  }

  private static final class Holder {
    @CommandLine.Mixin
    ServerOptions server = new ServerOptions();
  }
}
