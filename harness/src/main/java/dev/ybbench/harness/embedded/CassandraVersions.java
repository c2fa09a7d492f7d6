package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which Apache Cassandra release a {@code --db-version} means for YCQL. A release line maps to
 * one pinned release (checked to resolve on Maven Central), so "4.1" names the same server on
 * every machine; an exact release ("5.0.4") is taken as given.
 */
public final class CassandraVersions {
  public static final String GROUP = "org.apache.cassandra";
  public static final String ARTIFACT = "cassandra-all";
  public static final String DEFAULT_LINE = "5.0";

  private static final Map<String, String> PINNED = new TreeMap<>(Map.of(
      "4.1", "4.1.10",
      "5.0", "5.0.9"));

  private static final Pattern LINE = Pattern.compile("\\d\\.\\d+");
  private static final Pattern EXACT = Pattern.compile("\\d\\.\\d\\.\\d{1,3}");

  private CassandraVersions() {}

  public static String resolve(String requested) {
    String v = requested == null || requested.isBlank() ? DEFAULT_LINE : requested.strip();
    if (v.equals("4") || v.equals("5")) {
      v = v.equals("4") ? "4.1" : "5.0";
    }
    if (LINE.matcher(v).matches()) {
      String exact = PINNED.get(v);
      if (exact == null) {
        throw new UserError("Cassandra " + v + " is not supported; use " + String.join(" or ", PINNED.keySet())
            + " (both run on JDK 17), or an exact release such as " + PINNED.get(DEFAULT_LINE));
      }
      return exact;
    }
    if (EXACT.matcher(v).matches()) {
      if (!v.startsWith("4.1.") && !v.startsWith("5.0.")) {
        throw new UserError("Cassandra " + v + " is not supported; releases 4.1.x and 5.0.x run on JDK 17");
      }
      return v;
    }
    throw new UserError("--db-version '" + v + "' is not a Cassandra version; use " + String.join(" or ",
        PINNED.keySet()) + ", or an exact release such as " + PINNED.get(DEFAULT_LINE));
  }

  public static MavenArtifact artifact(String exactVersion) {
    return new MavenArtifact(GROUP, ARTIFACT, exactVersion);
  }
}
