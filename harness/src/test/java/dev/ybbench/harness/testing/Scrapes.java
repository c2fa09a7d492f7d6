package dev.ybbench.harness.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scrapes a Prometheus endpoint and reads the text format strictly: every line a comment, blank,
 * or {@code name{label="value",…} number}; anything else fails the read.
 */
public final class Scrapes {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Pattern SAMPLE = Pattern.compile(
      "([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\",?)*)\\})? "
          + "([-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|Inf))(?: [0-9]+)?");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One sample: a series and its value. */
  public record Sample(String name, Map<String, String> labels, double value) {
    /** Whether every label in {@code match} has that value here. */
    public boolean has(Map<String, String> match) {
      return match.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
  }

  private Scrapes() {}

  private static final Pattern PORT = Pattern.compile("Prometheus: serving /metrics on port (\\d+)");

  /**
   * Scrapes a run's endpoint every 200 ms from when the run prints its port ("Prometheus: serving
   * /metrics on port N") until closed, keeping every answer.
   */
  public static final class WhileRunning implements AutoCloseable {
    private final List<String> texts = new ArrayList<>();
    private final Thread scraper;

    /** @param printed what the run prints, as it prints it */
    public WhileRunning(ByteArrayOutputStream printed) {
      scraper = new Thread(() -> {
        try {
          String url = null;
          while (!Thread.currentThread().isInterrupted()) {
            if (url == null) {
              Matcher m = PORT.matcher(printed.toString(StandardCharsets.UTF_8));
              url = m.find() ? "http://127.0.0.1:" + m.group(1) + "/metrics" : null;
            }
            String text = url == null ? null : scrape(url);
            if (text != null) {
              synchronized (texts) {
                texts.add(text);
              }
            }
            Thread.sleep(200);
          }
        } catch (InterruptedException e) {
          // the run is over
        }
      });
      scraper.start();
    }

    /** Every scrape so far, in order. */
    public List<String> texts() {
      synchronized (texts) {
        return List.copyOf(texts);
      }
    }

    @Override
    public void close() throws InterruptedException {
      scraper.interrupt();
      scraper.join();
    }
  }

  /** GET {@code url}'s text, or null when nothing answers there (yet, or any more); an answer other than 200 throws. */
  public static String scrape(String url) throws InterruptedException {
    HttpResponse<String> r = get(url);
    return r == null ? null : ok(url, r).body();
  }

  /**
   * Whether a server's readiness endpoint says it is ready: false while nothing answers there or
   * it answers 503 (Prometheus listens before its storage is open, and says 503 until then); any
   * other answer than 200 throws.
   */
  public static boolean ready(String url) throws InterruptedException {
    HttpResponse<String> r = get(url);
    if (r == null || r.statusCode() == 503) {
      return false;
    }
    ok(url, r);
    return true;
  }

  private static HttpResponse<String> get(String url) throws InterruptedException {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    }
  }

  private static HttpResponse<String> ok(String url, HttpResponse<String> r) {
    if (r.statusCode() != 200) {
      throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
    }
    return r;
  }

  /** The samples of a text-format exposition; a line that is none of its forms throws. */
  public static List<Sample> parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      String v = m.group(3);
      samples.add(new Sample(m.group(1), labels, v.endsWith("Inf") ? (v.startsWith("-") ? Double.NEGATIVE_INFINITY
          : Double.POSITIVE_INFINITY) : Double.parseDouble(v)));
    }
    return samples;
  }

  /** The sum of the samples named {@code name} with the labels in {@code match}. */
  public static double sum(List<Sample> samples, String name, Map<String, String> match) {
    return samples.stream().filter(s -> s.name().equals(name) && s.has(match)).mapToDouble(Sample::value).sum();
  }
}
