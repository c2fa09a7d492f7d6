package dev.ybbench.pgbench.core;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
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
   * @param commands its commands in pgbench's order (those {@code -r} reports on), each whether it
   *                 names one of the tables; null when they do not run once each ({@code \if}),
   *                 so nothing can be audited
   */
  public record Script(String name, Path file, int weight, List<Boolean> commands) {
    public Script {
      commands = commands == null ? null : List.copyOf(commands);
    }

    /** The statements a transaction of it completes on the tables; −1 when not known ({@code \if}). */
    public int onTables() {
      return commands == null ? -1 : (int) commands.stream().filter(c -> c).count();
    }

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
  /** Each built-in's commands, as {@code -r} lists them: its \set lines, then its SQL. */
  private static final List<List<Boolean>> COMMANDS = List.of(
      commands(4, false, true, true, true, true, true, false),
      commands(4, false, true, true, true, false),
      commands(1, true));

  private static List<Boolean> commands(int sets, boolean... sql) {
    List<Boolean> out = new ArrayList<>(Collections.nCopies(sets, false));
    for (boolean b : sql) {
      out.add(b);
    }
    return out;
  }

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
          weight(nw[1], "-f " + f), commands(read(file), tablePrefix)));
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
    return new Script(name, null, weight, COMMANDS.get(BUILTINS.indexOf(name)));
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

  /** The statements a transaction of {@code script} completes on the tables; −1 when it branches. */
  public static int onTables(String script, String tablePrefix) {
    return new Script("", null, 1, commands(script, tablePrefix)).onTables();
  }

  /** Meta-commands that end the SQL before them rather than being commands of their own. */
  private static final Pattern ENDS_SQL = Pattern.compile("\\\\(gset|aset)\\b", Pattern.CASE_INSENSITIVE);

  /**
   * A script's commands in order, each whether it is SQL that names one of pgbench's tables; null
   * when the script branches (its commands then do not run once each). pgbench's rules: a line
   * starting with a backslash is a meta-command (continued by a trailing backslash; \gset and
   * \aset belong to the SQL before them); SQL runs to its semicolon, over lines; {@code --} starts
   * a comment.
   */
  public static List<Boolean> commands(String script, String tablePrefix) {
    if (CONDITIONAL.matcher(script).find()) {
      return null;
    }
    Pattern table = Pattern.compile("\\b" + Pattern.quote(tablePrefix) + "(accounts|branches|tellers|history)\\b",
        Pattern.CASE_INSENSITIVE);
    List<Boolean> out = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    boolean meta = false;
    for (String line : script.split("\n", -1)) {
      String text = line.replaceFirst("--.*$", "");
      if (meta || (sql.toString().isBlank() && text.stripLeading().startsWith("\\"))) {
        if (!meta && !ENDS_SQL.matcher(text.stripLeading()).lookingAt()) {
          out.add(false);
        }
        meta = text.stripTrailing().endsWith("\\");
        continue;
      }
      Matcher ends = ENDS_SQL.matcher(text);
      boolean ended = ends.find(); // \gset in place of the semicolon
      sql.append(ended ? text.substring(0, ends.start()) : text).append('\n');
      int semi;
      while ((semi = sql.indexOf(";")) >= 0) {
        if (!sql.substring(0, semi).isBlank()) {
          out.add(table.matcher(sql.substring(0, semi)).find());
        }
        sql.delete(0, semi + 1);
      }
      if (ended && !sql.toString().isBlank()) {
        out.add(table.matcher(sql).find());
        sql.setLength(0);
      }
    }
    if (!sql.toString().isBlank()) {
      out.add(table.matcher(sql).find()); // the last command may end without its semicolon
    }
    return out;
  }
}
