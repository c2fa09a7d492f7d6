package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.embedded.ServerUser;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs against servers that speak TLS, as docs/yugabytedb.md shows them: an embedded PostgreSQL
 * and Cassandra with a certificate for 127.0.0.1 signed by a CA made here (openssl). Another CA's
 * certificate is refused, which shows the server's certificate was checked.
 */
class TlsRunIT {
  @TempDir
  Path dir;

  /** A throwaway CA, and a certificate and key for 127.0.0.1 it signed, in {@link #dir}. */
  private void makeCertificates() throws Exception {
    Tools.requireInstalled("openssl", "openssl");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // the server user reads its files here
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=ybbench run CA",
        "-keyout", "ca.key", "-out", "ca.crt");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out",
        "server.csr");
    Files.writeString(dir.resolve("san.ext"), "subjectAltName = IP:127.0.0.1\n");
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.ext", "-out", "server.crt");
    Files.setPosixFilePermissions(dir.resolve("server.crt"), PosixFilePermissions.fromString("rw-r--r--"));
  }

  /** YSQL: pgjdbc's {@code sslmode=verify-full&sslrootcert=…} through {@code -p ysql.url_options}. */
  @Test
  void aYsqlRunVerifiesTheServersCertificateAndCompletes() throws Exception {
    makeCertificates();
    // PostgreSQL reads a key only its own user can read.
    Path key = dir.resolve("server.key");
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    ServerUser.forServer().own(key);

    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, Map.of("ssl", "on", "ssl_cert_file",
        dir.resolve("server.crt").toString(), "ssl_key_file", key.toString()), System.out::println)) {
      String options = "sslmode=verify-full&sslrootcert=" + dir.resolve("ca.crt");
      String trusted = run(pg.hostPort(), "load", "-p", "ysql.url_options=" + options);
      assertTrue(trusted.contains("Run complete: "), trusted);
      // run.json keeps the options the run connected with.
      assertEquals(options, runJson(trusted).at("/parameters/ysql.url_options").asText(), trusted);

      // A CA that did not sign the server's certificate: refused, in one line, before any work.
      String refused = run(pg.hostPort(), "run", "-p", "ysql.url_options=sslmode=verify-full&sslrootcert=" + OTHER_CA);
      assertFalse(refused.contains("Run complete: "), refused);
      assertTrue(refused.contains("error: Cannot connect to YSQL at " + pg.hostPort() + " over TLS: SSL error: ")
          && refused.contains("; check sslmode and sslrootcert in the URL options"), refused);

      // A server name the certificate does not hold (localhost, where it holds 127.0.0.1).
      String misnamed = run("localhost:" + pg.port(), "run", "-p", "ysql.url_options=" + options);
      assertTrue(misnamed.contains("over TLS: ") && misnamed.contains("check sslmode and sslrootcert"), misnamed);
    }
  }

  /**
   * YCQL: the cluster's CA certificate as {@code -p ycql.truststore} against a Cassandra that
   * takes only TLS from clients, so every connection of the run (the server's version, the
   * schema, the workload) must use it.
   */
  @Test
  void aYcqlRunTrustsTheClustersCaAndCompletes() throws Exception {
    makeCertificates();
    openssl("pkcs12", "-export", "-in", "server.crt", "-inkey", "server.key", "-out", "server.p12", "-passout",
        "pass:changeit");
    String tls = String.join("\n", "client_encryption_options:", "  enabled: true", "  optional: false",
        "  keystore: " + dir.resolve("server.p12"), "  keystore_password: changeit", "  store_type: PKCS12", "");
    try (EmbeddedCassandra cassandra = EmbeddedCassandra.start(null, 1, tls, System.out::println)) {
      String hosts = cassandra.hostList();
      String trusted = run(hosts, "load", "--api", "ycql", "-p", "ycql.truststore=" + dir.resolve("ca.crt"));
      assertTrue(trusted.contains("Run complete: "), trusted);
      assertEquals(500, summary(trusted).at("/phases/load/successes").asLong(), trusted);

      String refused = run(hosts, "run", "--api", "ycql", "-p", "ycql.truststore=" + OTHER_CA);
      assertFalse(refused.contains("Run complete: "), refused);
      assertTrue(refused.contains("error: Cannot connect to YCQL at " + hosts + " over TLS: ")
          && refused.contains("; check -p ycql.truststore (the cluster's CA certificate)"), refused);

      String plain = run(hosts, "run", "--api", "ycql");
      assertFalse(plain.contains("Run complete: "), "a server that takes only TLS, reached without it: " + plain);
      assertTrue(plain.contains("(a cluster that takes only TLS needs -p ycql.truststore=ca.crt)"), plain);
    }
  }

  /** A CA that signed neither server's certificate (its key was never kept). */
  private static final Path OTHER_CA = RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls/ca.crt");

  private static JsonNode runJson(String printed) throws Exception {
    return RunDirectory.JSON.readTree(runDir(printed).resolve("run.json").toFile());
  }

  private static JsonNode summary(String printed) throws Exception {
    return RunDirectory.JSON.readTree(runDir(printed).resolve("summary.json").toFile());
  }

  private static Path runDir(String printed) {
    int at = printed.indexOf("Run complete: ") + "Run complete: ".length();
    return Path.of(printed.substring(at, printed.indexOf('\n', at)).strip());
  }

  private String run(String hosts, String phase, String... more) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>(List.of("workloadc", "--hosts", hosts, "--records", "500", "--operations",
        "1000", "--threads", "2", "--phase", phase, "--results-dir", dir.resolve("results").toString(),
        "--no-install"));
    if (!List.of(more).contains("--api")) {
      args.addAll(List.of("--user", "postgres"));
    }
    args.addAll(List.of(more));
    int rc = new Runner(new Ycsb(), new Console(print), RunYcsbTest.HOME).execute(args.toArray(String[]::new), print);
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    if (text.contains("Run complete: ")) {
      assertEquals(0, rc, text);
    } else {
      assertTrue(rc != 0, text);
    }
    return text;
  }

  private void openssl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("openssl"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "openssl " + String.join(" ", args) + ": " + out);
  }
}
