package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.embedded.ServerUser;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run against a server that speaks TLS, as docs/yugabytedb.md shows it: pgjdbc's
 * {@code sslmode=verify-full&sslrootcert=ca.crt} through {@code -p ysql.url_options}. The server
 * is an embedded PostgreSQL with a certificate for 127.0.0.1 signed by a CA made here (openssl);
 * another CA's certificate is refused, which shows the server's certificate was checked.
 */
class TlsRunTest {
  @TempDir
  Path dir;

  @Test
  void aRunVerifiesTheServersCertificateAndCompletes() throws Exception {
    if (Stream.of(System.getenv("PATH").split(":")).noneMatch(d -> Files.isExecutable(Path.of(d, "openssl")))) {
      Assumptions.abort("skipped: openssl is not installed (apt-get install openssl; .ci/run installs it)");
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // the server user reads its files here
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=ybbench run CA",
        "-keyout", "ca.key", "-out", "ca.crt");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out",
        "server.csr");
    Files.writeString(dir.resolve("san.ext"), "subjectAltName = IP:127.0.0.1\n");
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.ext", "-out", "server.crt");
    // PostgreSQL reads a key only its own user can read.
    Path key = dir.resolve("server.key");
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    ServerUser.forServer().own(key);
    Files.setPosixFilePermissions(dir.resolve("server.crt"), PosixFilePermissions.fromString("rw-r--r--"));

    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, Map.of("ssl", "on", "ssl_cert_file",
        dir.resolve("server.crt").toString(), "ssl_key_file", key.toString()), System.out::println)) {
      String options = "sslmode=verify-full&sslrootcert=" + dir.resolve("ca.crt");
      String trusted = run(pg, "load", options);
      assertTrue(trusted.contains("Run complete: "), trusted);
      // run.json keeps the options the run connected with.
      Path runDir = Path.of(trusted.substring(trusted.indexOf("Run complete: ") + 14).strip());
      assertEquals(options, RunDirectory.JSON.readTree(runDir.resolve("run.json").toFile())
          .at("/parameters/ysql.url_options").asText(), trusted);

      // A CA that did not sign the server's certificate: refused, in one line, before any work.
      Path other = RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls/ca.crt");
      String refused = run(pg, "run", "sslmode=verify-full&sslrootcert=" + other);
      assertFalse(refused.contains("Run complete: "), refused);
      assertTrue(refused.contains("error: Cannot connect to YSQL at " + pg.hostPort() + " over TLS: SSL error: ")
          && refused.contains("; check sslmode and sslrootcert in the URL options"), refused);

      // A server name the certificate does not hold (localhost, where it holds 127.0.0.1).
      String misnamed = run(pg, "run", options, "localhost:" + pg.port());
      assertTrue(misnamed.contains("over TLS: ") && misnamed.contains("check sslmode and sslrootcert"), misnamed);
    }
  }

  private String run(EmbeddedPostgres pg, String phase, String urlOptions) {
    return run(pg, phase, urlOptions, pg.hostPort());
  }

  private String run(EmbeddedPostgres pg, String phase, String urlOptions, String hosts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>(List.of("workloadc", "--hosts", hosts, "--user", "postgres",
        "--records", "500", "--operations", "1000", "--threads", "2", "--phase", phase, "-p",
        "ysql.url_options=" + urlOptions, "--results-dir", dir.resolve("results").toString(), "--no-install"));
    int rc = new RunYcsb(new Console(print), RunYcsbTest.HOME).execute(args.toArray(String[]::new), print);
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
