package dev.ybbench.harness.embedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/** Unpacks the {@code .txz} that a zonky binaries jar carries (modes and symlinks kept). */
final class TxzArchive {
  private TxzArchive() {}

  /** Extracts the first {@code .txz} inside {@code jar} into {@code target}, which must not exist yet. */
  static void extractFromJar(Path jar, Path target) throws IOException {
    try (ZipInputStream zip = new ZipInputStream(new BufferedInputStream(Files.newInputStream(jar)))) {
      for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
        if (e.getName().endsWith(".txz")) {
          extract(zip, target);
          return;
        }
      }
    }
    throw new IOException(jar + " holds no .txz archive");
  }

  private static void extract(InputStream txz, Path target) throws IOException {
    Files.createDirectories(target);
    try (TarArchiveInputStream tar = new TarArchiveInputStream(
        new XZCompressorInputStream(new BufferedInputStream(txz) {
          @Override
          public void close() {
            // the surrounding zip stream is closed by the caller
          }
        }))) {
      for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
        if (Thread.currentThread().isInterrupted()) { // Ctrl-C: a few seconds of unpacking are not waited for
          throw new InterruptedIOException("interrupted while unpacking");
        }
        Path out = target.resolve(e.getName()).normalize();
        if (!out.startsWith(target)) {
          throw new IOException("archive entry escapes target: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(out);
        } else if (e.isSymbolicLink()) {
          Files.createDirectories(out.getParent());
          Files.deleteIfExists(out);
          Files.createSymbolicLink(out, Path.of(e.getLinkName()));
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
          Files.setPosixFilePermissions(out, permissions(e.getMode()));
        }
      }
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.OWNER_WRITE);
    if ((mode & 0100) != 0) {
      p.add(PosixFilePermission.OWNER_EXECUTE);
      p.add(PosixFilePermission.GROUP_EXECUTE);
      p.add(PosixFilePermission.OTHERS_EXECUTE);
    }
    return p;
  }
}
