package dev.ybbench.harness.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus' text exposition format, as YugabyteDB's {@code /prometheus-metrics} writes it:
 * {@code name{label="value",…} value [timestamp_ms]} per line, labels in no fixed order, values
 * integers or floats ("3.19615e+06" from older releases), {@code # HELP} and {@code # TYPE}
 * lines (before every series, not once per name) skipped. A line it cannot read is skipped
 * rather than failing the whole scrape: one odd metric must not blind the server view.
 */
public final class PrometheusText {
  /** One series' value at the scrape. */
  public record Sample(String name, Map<String, String> labels, double value) {
    public String label(String key) {
      return labels.get(key);
    }
  }

  private PrometheusText() {}

  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      Sample s = line(line.strip());
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** One line, or null for a comment, a blank, or what is not a sample (a nameless series, a bad value). */
  static Sample line(String line) {
    if (line.isEmpty() || line.startsWith("#")) {
      return null;
    }
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    if (name.isEmpty()) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i = labels(line, i + 1, labels);
      if (i < 0) {
        return null;
      }
    }
    String[] rest = line.substring(i).strip().split("\\s+");
    try {
      return new Sample(name, labels, Double.parseDouble(rest[0]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Reads {@code key="value",…}} from {@code i}; returns the index after '}', or -1 when malformed. */
  private static int labels(String line, int i, Map<String, String> into) {
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '}') {
        return i + 1;
      }
      if (c == ',' || c == ' ') {
        i++;
        continue;
      }
      int eq = line.indexOf('=', i);
      if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
        return -1;
      }
      String key = line.substring(i, eq).strip();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      for (; j < line.length() && line.charAt(j) != '"'; j++) {
        char v = line.charAt(j);
        if (v == '\\' && j + 1 < line.length()) {
          char e = line.charAt(++j);
          value.append(e == 'n' ? '\n' : e);
        } else {
          value.append(v);
        }
      }
      if (j >= line.length()) {
        return -1;
      }
      into.put(key, value.toString());
      i = j + 1;
    }
    return -1;
  }
}
