package dev.ybbench.ycsb.ycql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ycql.truststore: a cluster's CA certificate (PEM, as YugabyteDB's ca.crt) or a trust store,
 * read before anything starts. The samples in tls/ are a throwaway CA's certificate, as PEM and
 * as a PKCS12 trust store (password changeit); its key was never kept.
 */
class YcqlTlsTest {
  private static final Path TLS = Path.of("src/test/resources/tls").toAbsolutePath();

  @TempDir
  Path dir;

  @Test
  void aPemCertificateOrATrustStoreIsTrusted() throws Exception {
    var pem = YcqlConfig.trusted(TLS.resolve("ca.crt").toString(), "");
    assertEquals(1, pem.size());
    X509Certificate ca = (X509Certificate) pem.getCertificate(pem.aliases().nextElement());
    assertEquals("CN=ybbench test CA", ca.getSubjectX500Principal().getName());
    var store = YcqlConfig.trusted(TLS.resolve("trust.p12").toString(), "changeit");
    assertEquals(1, store.size());
    assertEquals(ca, store.getCertificate(store.aliases().nextElement()));
    assertTrue(YcqlConfig.sslContext(TLS.resolve("ca.crt").toString(), "").getSocketFactory() != null);
  }

  @Test
  void aTrustStoreTurnsTlsOnAndItsPasswordIsNeverShown() {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.TRUSTSTORE, TLS.resolve("trust.p12").toString());
    p.setProperty(YcqlConfig.TRUSTSTORE_PASSWORD, "changeit");
    YcqlConfig c = YcqlConfig.from(p);
    assertTrue(c.tls(), "a trust store is TLS");
    assertFalse(YcqlConfig.from(new Properties()).tls());
    assertTrue(dev.ybbench.harness.results.RunInfo.isSecret(YcqlConfig.TRUSTSTORE_PASSWORD));
  }

  @Test
  void whatCannotBeReadIsOneLineBeforeAnythingStarts() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.crt"), "not a certificate\n");
    Path none = dir.resolve("none.crt");
    UserError missing = assertThrows(UserError.class, () -> YcqlConfig.trusted(none.toString(), ""));
    assertTrue(missing.getMessage().startsWith("ycql.truststore=" + none + " cannot be read as PEM certificates or a "
        + "key store ("), missing.getMessage());
    assertTrue(missing.getMessage().endsWith("); give the cluster's CA certificate (ca.crt), or a PKCS12/JKS trust "
        + "store with ycql.truststore_password"), missing.getMessage());
    UserError bad = assertThrows(UserError.class, () -> YcqlConfig.trusted(junk.toString(), ""));
    assertTrue(bad.getMessage().startsWith("ycql.truststore=" + junk + " cannot be read"), bad.getMessage());
    UserError wrong = assertThrows(UserError.class, () -> YcqlConfig.trusted(TLS.resolve("trust.p12").toString(),
        "wrong"));
    assertTrue(wrong.getMessage().endsWith("or a PKCS12/JKS trust store with ycql.truststore_password"),
        wrong.getMessage());
    assertEquals("ycql.truststore_password opens a key store; " + TLS.resolve("ca.crt") + " holds PEM certificates, "
        + "which need none: leave it out", assertThrows(UserError.class, () -> YcqlConfig.trusted(
            TLS.resolve("ca.crt").toString(), "changeit")).getMessage());
    Properties p = new Properties();
    p.setProperty(YcqlConfig.TRUSTSTORE, junk.toString());
    assertThrows(UserError.class, () -> YcqlConfig.from(p), "refused as the plan reads it");
  }
}
