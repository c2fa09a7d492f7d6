package dev.ybbench.pgbench.core;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The scripts a pgbench run draws its transactions from: its built-ins ({@code -b NAME[@W]},
 * {@code -N}, {@code -S}; tpcb-like when none is given) and files ({@code -f FILE[@W]}), each with
 * its weight and the statements one transaction of it completes on pgbench's tables, which the
 * server's count is audited against.
 */
public final class PgbenchScripts {
  private PgbenchScripts() {}

  /**
   * One script.
   *
   * @param name     the built-in's name, or the file's name without .sql
   * @param file     the file of a {@code -f} script, or null for a built-in
   * @param weight   its share of the transactions, against the others' ({@code @W})
   * @param onTables the statements a transaction of it completes on the tables; −1 when its
   *                 commands do not run once each ({@code \if}), so nothing can be audited
   */
  public record Script(String name, Path file, int weight, int onTables) {
    /** pgbench's option for it: {@code -b NAME@W} or {@code -f FILE@W}. */
    public List<String> argument() {
      return List.of(file == null ? "-b" : "-f", (file == null ? name : file.toString()) + "@" + weight);
    }
  }

  /**
   * The built-ins, each with its statements on the tables (pgbench --show-script): tpcb-like's
   * UPDATE accounts, SELECT accounts, UPDATE tellers, UPDATE branches, INSERT history between
   * BEGIN and END; simple-update's without the tellers and branches; select-only's one SELECT.
   */
  public static final List<String> BUILTINS = List.of("tpcb-like", "simple-update", "select-only");
  private static final int[] ON_TABLES = {5, 3, 1};

  /** The scripts of {@code -b}, {@code -f}, {@code -N} and {@code -S} as given; tpcb-like alone when none is. */
  public static List<Script> of(List<String> builtins, List<String> files, boolean simpleUpdate, boolean selectOnly,
      String tablePrefix) {
    List<Script> out = new ArrayList<>();
    if (simpleUpdate) {
      out.add(builtin("simple-update", 1));
    }
    if (selectOnly) {
      out.add(builtin("select-only", 1));
    }
    for (String b : builtins) {
      String[] nw = nameAndWeight(b, "-b");
      out.add(builtin(nw[0], weight(nw[1], "-b " + b)));
    }
    for (String f : files) {
      String[] nw = nameAndWeight(f, "-f");
      Path file = Path.of(nw[0]);
      out.add(new Script(file.getFileName().toString().replaceFirst("\\.sql$", ""), file.toAbsolutePath(),
          weight(nw[1], "-f " + f), onTables(read(file), tablePrefix)));
    }
    if (out.isEmpty()) {
      out.add(builtin("tpcb-like", 1));
    }
    if (out.stream().map(Script::name).distinct().count() < out.size()) {
      throw new UserError("a script is given twice (" + String.join(", ", out.stream().map(Script::name).toList())
          + "): give it once, with a weight (@W) for its share");
    }
    if (out.stream().allMatch(s -> s.weight() == 0)) {
      throw new UserError("every script's weight is 0: nothing would run");
    }
    return List.copyOf(out);
  }

  /** The built-in {@code given} names, as pgbench takes it: its whole name or a prefix of one only. */
  static Script builtin(String given, int weight) {
    List<String> matching = BUILTINS.stream().filter(b -> b.startsWith(given.toLowerCase(Locale.ROOT))).toList();
    if (given.isEmpty() || matching.size() != 1) {
      throw new UserError("-b " + given + ": " + (matching.isEmpty() ? "no such built-in script" : "ambiguous")
          + "; pgbench's are " + String.join(", ", BUILTINS));
    }
    String name = matching.get(0);
    return new Script(name, null, weight, ON_TABLES[BUILTINS.indexOf(name)]);
  }

  /** The workload's name: the scripts' names, with their weights when they differ ("simple-update@2+select-only@8"). */
  public static String workload(List<Script> scripts) {
    boolean weighted = scripts.stream().map(Script::weight).distinct().count() > 1;
    return String.join("+", scripts.stream().map(s -> weighted ? s.name() + "@" + s.weight() : s.name()).toList());
  }

  private static String[] nameAndWeight(String given, String flag) {
    int at = given.lastIndexOf('@');
    if (at == 0) {
      throw new UserError(flag + " " + given + ": name the script before @");
    }
    return at < 0 ? new String[] {given, null} : new String[] {given.substring(0, at), given.substring(at + 1)};
  }

  private static int weight(String w, String given) {
    if (w == null) {
      return 1;
    }
    try {
      int v = Integer.parseInt(w);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new UserError(given + ": the weight after @ must be a whole number ≥ 0, was '" + w + "'");
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError("-f " + file + ": cannot read it (" + e.getMessage() + ")");
    }
  }

  private static final Pattern CONDITIONAL = Pattern.compile("^\\s*\\\\(if|elif|else|endif)\\b",
      Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

  /**
   * The SQL commands of a script that name one of pgbench's tables, each run once a transaction;
   * −1 when the script branches (its commands then do not run once each). pgbench's rules: a line
   * starting with a backslash is a meta-command (continued by a trailing backslash); SQL runs to
   * its semicolon, over lines; {@code --} starts a comment.
   */
  public static int onTables(String script, String tablePrefix) {
    if (CONDITIONAL.matcher(script).find()) {
      return -1;
    }
    Pattern table = Pattern.compile("\\b" + Pattern.quote(tablePrefix) + "(accounts|branches|tellers|history)\\b",
        Pattern.CASE_INSENSITIVE);
    int count = 0;
    StringBuilder sql = new StringBuilder();
    boolean meta = false;
    for (String line : script.split("\n", -1)) {
      String text = line.replaceFirst("--.*$", "");
      if (meta || (sql.toString().isBlank() && text.stripLeading().startsWith("\\"))) {
        meta = text.stripTrailing().endsWith("\\");
        continue;
      }
      sql.append(text).append('\n');
      int semi;
      while ((semi = sql.indexOf(";")) >= 0) {
        if (table.matcher(sql.substring(0, semi)).find()) {
          count++;
        }
        sql.delete(0, semi + 1);
      }
    }
    if (!sql.toString().isBlank() && table.matcher(sql).find()) {
      count++; // the last command may end without its semicolon
    }
    return count;
  }
}
