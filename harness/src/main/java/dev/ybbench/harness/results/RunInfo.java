package dev.ybbench.harness.results;

import dev.ybbench.harness.ServerInfo;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * run.json: what ran, against what, on what, and how it ended. Written when the run starts
 * (state "running") and again when it ends, so a run killed outright never claims to be complete.
 */
public final class RunInfo {
  public static final String RUNNING = "running";
  public static final String COMPLETE = "complete";
  public static final String INTERRUPTED = "interrupted";
  public static final String FAILED = "failed";
  /** A merged fleet that lacks a client, or a complete run from one of them (--include-incomplete). */
  public static final String PARTIAL = "partial";

  private final Map<String, Object> root = new LinkedHashMap<>();

  public RunInfo(String bench, String workload, String label, Instant started) {
    root.put("format", RunSummary.FORMAT);
    root.put("bench", bench);
    root.put("workload", workload);
    root.put("label", label);
    root.put("state", RUNNING);
    root.put("started", started.toString());
    root.put("ended", null);
    root.put("harness", harness());
    root.put("host", host());
  }

  public RunInfo server(ServerInfo server, boolean embedded, String hosts, String requestedVersion) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("product", server.product());
    s.put("version", server.version());
    s.put("version_string", server.fullVersion());
    s.put("embedded", embedded);
    s.put("requested_version", requestedVersion);
    s.put("hosts", hosts);
    root.put("server", s);
    return this;
  }

  /**
   * Every effective parameter; any whose name mentions a password or secret is redacted, and so
   * is a {@code password=…} inside a value (JDBC URL options).
   */
  public RunInfo parameters(Map<String, String> params) {
    Map<String, String> p = new TreeMap<>();
    params.forEach((k, v) -> p.put(k, isSecret(k) ? "***" : redactInline(v)));
    root.put("parameters", p);
    return this;
  }

  public RunInfo put(String key, Object value) {
    root.put(key, value);
    return this;
  }

  /** @param reason why a failed run cannot stand, one line; null otherwise */
  public RunInfo end(String state, Instant ended, String reason) {
    root.put("state", state);
    root.put("ended", ended.toString());
    if (reason != null) {
      root.put("reason", reason);
    }
    return this;
  }

  public Map<String, Object> tree() {
    return root;
  }

  /** The command line as typed, with the value of any password flag or property hidden. */
  public static java.util.List<String> redactCommand(java.util.List<String> args,
      java.util.function.UnaryOperator<String> clean) {
    java.util.List<String> out = new java.util.ArrayList<>();
    boolean hideNext = false;
    for (String a : args) {
      if (hideNext) {
        out.add("***");
        hideNext = false;
      } else if (a.equals("--password")) {
        out.add(a);
        hideNext = true;
      } else if (isSecret(a.contains("=") ? a.substring(0, a.indexOf('=')) : "")) {
        out.add(a.substring(0, a.indexOf('=') + 1) + "***");
      } else {
        out.add(redactInline(clean.apply(a)));
      }
    }
    return out;
  }

  private static final java.util.regex.Pattern INLINE_SECRET = java.util.regex.Pattern.compile(
      "(?i)((?:ssl)?password|passwd|secret)=[^&\\s]*");

  /** A URL's user and password: "postgresql://perf:secret@host/db". */
  private static final java.util.regex.Pattern URL_PASSWORD = java.util.regex.Pattern.compile(
      "(://[^:/@\\s]+:)[^@/\\s]+@");

  /** "a=1&password=x" becomes "a=1&password=***"; "postgresql://u:x@h/db" becomes "postgresql://u:***@h/db". */
  public static String redactInline(String value) {
    return value == null ? null : URL_PASSWORD.matcher(INLINE_SECRET.matcher(value).replaceAll("$1=***"))
        .replaceAll("$1***@");
  }

  private static final java.util.regex.Pattern MAY_DIFFER = java.util.regex.Pattern.compile(
      ".*(hosts|^url$|dialect|load_balance|partition_metadata|user|password|target|^ybbench\\.phase$).*");

  /**
   * Whether two runs of one configuration may differ in this parameter: how they reached the
   * server (hosts, URL, user, password, load balancing), the --target cap and which phases they
   * ran. compare.sh and merge check every other parameter for equality.
   */
  public static boolean mayDifferBetweenRuns(String parameter) {
    return MAY_DIFFER.matcher(parameter).matches();
  }

  public static boolean isSecret(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.contains("password") || n.contains("secret") || n.contains("passwd");
  }

  private static Map<String, Object> harness() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("version", harnessVersion());
    h.put("git_revision", System.getProperty("ybbench.git", "unknown"));
    h.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
    return h;
  }

  public static String harnessVersion() {
    try (InputStream in = RunInfo.class.getResourceAsStream("/dev/ybbench/harness/version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * The machine's name, so that compare.sh can refuse runs from two machines. From the kernel
   * (no DNS lookup, which can hang for seconds on a misconfigured resolver).
   */
  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException | RuntimeException e) {
      return System.getenv().getOrDefault("HOSTNAME", "unknown");
    }
  }

  private static Map<String, Object> host() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("name", hostName());
    h.put("cores", Runtime.getRuntime().availableProcessors());
    h.put("memory_mb", ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize() >> 20);
    h.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch"));
    return h;
  }
}
