package dev.ybbench.ycsb;

import dev.ybbench.harness.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * A report as a reader sees it: opened from disk in a real headless Chromium (Debian's
 * {@code chromium} and {@code chromium-driver}, which CI installs), and what is wrong with it —
 * the answer not visible in the first screen, a chart that did not load, an error on the
 * browser's console.
 */
final class ReportBrowser implements AutoCloseable {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  /** A laptop's first screen. */
  private static final int WIDTH = 1280;
  private static final int HEIGHT = 800;

  private final ChromeDriver driver;

  private ReportBrowser() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // No sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=" + WIDTH + "," + HEIGHT);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
  }

  /**
   * A browser, or the test skipped where Chromium is not installed; under CI (CI=true) its absence
   * fails instead, since CI installs it.
   */
  static ReportBrowser open() {
    Tools.require(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER), "chromium and chromium-driver",
        "apt-get install chromium chromium-driver");
    return new ReportBrowser();
  }

  /**
   * What is wrong with {@code html} as a reader opens it: each line one problem; none when the
   * page's {@code firstScreen} elements (a CSS selector) are all in the first screen, every image
   * loaded and the console has no error.
   */
  @SuppressWarnings("unchecked")
  List<String> problems(Path html, String firstScreen) {
    driver.get(html.toUri().toString());
    List<String> problems = new ArrayList<>();
    List<Map<String, Object>> answer = (List<Map<String, Object>>) driver.executeScript(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => ({text: e.textContent, "
            + "top: e.getBoundingClientRect().top, visible: e.offsetParent !== null}))", firstScreen);
    if (answer.isEmpty()) {
      problems.add("nothing matches " + firstScreen);
    }
    for (Map<String, Object> e : answer) {
      double top = ((Number) e.get("top")).doubleValue();
      if (!Boolean.TRUE.equals(e.get("visible")) || top < 0 || top >= HEIGHT) {
        problems.add("not in the first screen (top " + top + " px): " + e.get("text"));
      }
    }
    List<String> broken = (List<String>) driver.executeScript("return Array.from(document.images)"
        + ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'))");
    broken.forEach(src -> problems.add("chart did not load: " + src));
    // A chart drawn in the page (an inline SVG) must have drawn something of its data.
    List<String> empty = (List<String>) driver.executeScript("return Array.from(document.querySelectorAll("
        + "'svg.chart')).filter(s => s.querySelectorAll('circle, rect, path[d^=\"M\"]').length === 0 "
        + "|| s.getBoundingClientRect().height === 0).map(s => s.getAttribute('aria-label'))");
    empty.forEach(label -> problems.add("chart drawn empty: " + label));
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
        problems.add("console: " + e.getMessage());
      }
    }
    return problems;
  }

  /** The text a reader sees of the elements matching a CSS selector. */
  @SuppressWarnings("unchecked")
  List<String> texts(String selector) {
    return (List<String>) driver.executeScript("return Array.from(document.querySelectorAll(arguments[0]))"
        + ".map(e => e.innerText)", selector);
  }

  /** How many images the page has. */
  long images() {
    return ((Number) driver.executeScript("return document.images.length")).longValue();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
