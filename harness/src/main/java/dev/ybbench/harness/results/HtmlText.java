package dev.ybbench.harness.results;

/** What the HTML reports (a run's, a comparison's) share: text made safe to put into a page. */
public final class HtmlText {
  private HtmlText() {}

  /** {@code s} as HTML text, or as a double-quoted attribute's value: no character read as markup. */
  public static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
