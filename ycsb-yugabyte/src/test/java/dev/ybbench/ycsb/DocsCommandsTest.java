package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run_ycsb.sh command in the README's and the docs' shell blocks is accepted as written:
 * each is split by bash (its quotes, variables and comments as a user's shell would take them)
 * and given to the runner with --dry-run, which refuses whatever the run would refuse before it
 * connects. The docs' example paths (a cluster's ca.crt, a trust store, results/history.db)
 * stand for real files here.
 */
class DocsCommandsTest {
  @TempDir
  Path dir;

  /** A command at the start of a line, after any VAR=value prefixes, joined over its continuation lines. */
  private static final Pattern COMMAND = Pattern.compile("(?m)^(?:\\w+=\\S+ )*\\./(run_ycsb)\\.sh((?:[^\\n]*"
      + "\\\\\\n)*[^\\n]*)$");
  private static final Pattern BLOCK = Pattern.compile("(?s)```bash\\n(.*?)```");

  @Test
  void everyDocumentedCommandPassesADryRun() throws Exception {
    Path tls = RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls");
    Map<String, String> files = Map.of("/opt/yb/certs/ca.crt", tls.resolve("ca.crt").toString(),
        "ycql.truststore=trust.p12", "ycql.truststore=" + tls.resolve("trust.p12"),
        "ycql.truststore_password='…'", "ycql.truststore_password=changeit",
        "results/history.db", dir.resolve("history.db").toString());
    List<Path> pages = new ArrayList<>(List.of(RunYcsbTest.HOME.resolve("README.md")));
    try (Stream<Path> docs = Files.list(RunYcsbTest.HOME.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    int checked = 0;
    for (Path page : pages) {
      Matcher block = BLOCK.matcher(Files.readString(page));
      while (block.find()) {
        Matcher m = COMMAND.matcher(block.group(1));
        while (m.find()) {
          String rest = m.group(2);
          for (Map.Entry<String, String> f : files.entrySet()) {
            rest = rest.replace(f.getKey(), f.getValue());
          }
          List<String> args = words(rest);
          if (!args.contains("--dry-run")) {
            args.add("--dry-run");
          }
          args.addAll(List.of("--results-dir", dir.resolve("results").toString(), "--no-install"));
          String where = page.getFileName() + ": ./" + m.group(1) + ".sh" + m.group(2).replace("\\\n", " ");
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
          int rc = new RunYcsb(new Console(print), RunYcsbTest.HOME).execute(args.toArray(String[]::new), print);
          assertEquals(0, rc, where + "\n" + out.toString(StandardCharsets.UTF_8));
          assertTrue(out.toString(StandardCharsets.UTF_8).contains("Plan (nothing started):"), where);
          checked++;
        }
      }
    }
    assertTrue(checked >= 15, "the docs' commands were found: " + checked);
  }

  /** The words bash makes of a command's arguments, with the environment the docs' examples assume. */
  private List<String> words(String rest) throws Exception {
    ProcessBuilder b = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + rest.replace("\\\n", " "));
    b.environment().putAll(Map.of("YSQL_NODES", "10.0.0.1,10.0.0.2,10.0.0.3", "YCQL_NODES", "10.0.0.1,10.0.0.2",
        "YCQL_ADDRS", "10.0.0.1,10.0.0.2", "BUILD", "2.25.0.0-b1", "HISTORY", dir.resolve("history.db").toString(),
        "PW_A", "a", "PW_B", "b", "UUID", "5f1b2c3d-0000-4000-8000-000000000001"));
    Process p = b.start();
    String split = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), rest);
    List<String> out = new ArrayList<>(List.of(split.split("\0")));
    out.removeIf(String::isEmpty);
    return out;
  }
}
