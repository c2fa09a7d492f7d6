package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement's latency as YugabyteDB's pg_stat_statements keeps it: {@code yb_latency_histogram},
 * a jsonb array of one-key objects {@code [{"[384.0,409.6)": 5}, {"[768.0,819.2)": 4}, …]}, each
 * key a bucket of milliseconds (lower bound included, upper excluded, {@code "[x,)"} for the
 * executions slower than the histogram's range) and each value the executions in it, in
 * ascending order, buckets without executions left out (yugabyte-db
 * {@code contrib/pg_stat_statements/pg_stat_statements.c}, {@code yb_add_hist_json}). The counts
 * are cumulative like the statement's calls, so a phase's buckets are the difference of two
 * readings. Written back in the same form.
 */
public final class LatencyBuckets {
  /** One bucket: its label as the server writes it, its bounds in ms (upper infinite when open), its count. */
  public record Bucket(String label, double lowerMs, double upperMs, long count) {}

  /** The server's own pattern for a bucket (yugabyte-db's yb_get_percentile). */
  private static final Pattern LABEL = Pattern.compile(
      "^\\[([-+]?[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?),([-+]?[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?)?\\)$");

  /** No executions yet. */
  public static final LatencyBuckets EMPTY = new LatencyBuckets(List.of());

  private final List<Bucket> buckets;

  private LatencyBuckets(List<Bucket> buckets) {
    this.buckets = List.copyOf(buckets);
  }

  public List<Bucket> buckets() {
    return buckets;
  }

  public long count() {
    return buckets.stream().mapToLong(Bucket::count).sum();
  }

  /**
   * The histogram in {@code json} (the column's text parsed, or a node of server.json).
   *
   * @throws IllegalArgumentException when it is not an array of one-key objects with bucket labels
   */
  @JsonCreator
  public static LatencyBuckets of(JsonNode json) {
    if (json == null || !json.isArray()) {
      throw new IllegalArgumentException("not a histogram (an array of {\"[lo,hi)\": count}): " + json);
    }
    List<Bucket> out = new ArrayList<>();
    for (JsonNode element : json) {
      if (!element.isObject() || element.size() != 1) {
        throw new IllegalArgumentException("a histogram element is not one {\"[lo,hi)\": count}: " + element);
      }
      Map.Entry<String, JsonNode> e = element.fields().next();
      Matcher m = LABEL.matcher(e.getKey());
      if (!m.matches() || !e.getValue().canConvertToLong()) {
        throw new IllegalArgumentException("not a histogram bucket: " + element);
      }
      out.add(new Bucket(e.getKey(), Double.parseDouble(m.group(1)),
          m.group(4) == null ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(4)), e.getValue().asLong()));
    }
    return new LatencyBuckets(out);
  }

  /** As the server writes it: {@code [{"[lo,hi)": count}, …]}. */
  @JsonValue
  public List<Map<String, Long>> json() {
    return buckets.stream().map(b -> Map.of(b.label(), b.count())).toList();
  }

  /** Both histograms' executions together (the same statement's rows of several users), bucket by bucket. */
  public LatencyBuckets plus(LatencyBuckets other) {
    Map<String, Bucket> sum = new LinkedHashMap<>();
    for (Bucket b : buckets) {
      sum.put(b.label(), b);
    }
    for (Bucket b : other.buckets) {
      sum.merge(b.label(), b, (x, y) -> new Bucket(x.label(), x.lowerMs(), x.upperMs(), x.count() + y.count()));
    }
    return new LatencyBuckets(sorted(sum));
  }

  /**
   * The executions between {@code before} and this, bucket by bucket; null when a bucket went
   * down (the statistics were reset in between), which leaves no difference to take.
   */
  public LatencyBuckets minus(LatencyBuckets before) {
    Map<String, Bucket> diff = new LinkedHashMap<>();
    for (Bucket b : buckets) {
      diff.put(b.label(), b);
    }
    for (Bucket b : before.buckets) {
      Bucket a = diff.get(b.label());
      long left = (a == null ? 0 : a.count()) - b.count();
      if (left < 0) {
        return null;
      }
      diff.put(b.label(), new Bucket(b.label(), b.lowerMs(), b.upperMs(), left));
    }
    diff.values().removeIf(b -> b.count() == 0);
    return new LatencyBuckets(sorted(diff));
  }

  private static List<Bucket> sorted(Map<String, Bucket> byLabel) {
    List<Bucket> out = new ArrayList<>(byLabel.values());
    out.sort((x, y) -> Double.compare(x.lowerMs(), y.lowerMs()));
    return out;
  }

  /**
   * The {@code percentile} (0–100) in ms as YugabyteDB's own {@code yb_get_percentile} gives it:
   * the upper bound of the first bucket whose executions so far reach {@code percentile} % of all
   * (rounded, at least one); infinite when that is the open bucket; NaN without executions.
   */
  public double percentileMs(double percentile) {
    double p = Math.max(0, Math.min(100, percentile));
    long total = count();
    if (total == 0) {
      return Double.NaN;
    }
    long wanted = Math.max(1, (long) (p / 100 * total + 0.5));
    long seen = 0;
    for (Bucket b : buckets) {
      seen += b.count();
      if (seen >= wanted) {
        return b.upperMs();
      }
    }
    return buckets.get(buckets.size() - 1).upperMs();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyBuckets other && buckets.equals(other.buckets);
  }

  @Override
  public int hashCode() {
    return buckets.hashCode();
  }

  @Override
  public String toString() {
    return json().toString();
  }
}
