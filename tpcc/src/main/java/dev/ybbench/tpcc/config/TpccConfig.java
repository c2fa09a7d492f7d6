package dev.ybbench.tpcc.config;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A TPC-C experiment in BenchBase's XML format, so a config that runs here also runs in
 * BenchBase and the other way round. Elements BenchBase knows but this driver does not use are
 * refused by name rather than silently ignored; anything else is an error naming the element
 * and its line.
 *
 * @param scaleFactor warehouses
 * @param works       phases run one after another (BenchBase runs each {@code <work>} in turn)
 */
public record TpccConfig(
    Path file,
    String type,
    String driver,
    String url,
    String username,
    String password,
    String isolation,
    int batchSize,
    int scaleFactor,
    int terminals,
    Integer loaderThreads,
    List<Work> works,
    List<TransactionType> transactionTypes) {

  /** The five transactions in BenchBase's names and the order its weights list them. */
  public static final List<String> TRANSACTIONS = TransactionSpec.names();

  /**
   * One {@code <work>}: how long, at what rate, with what mix.
   *
   * @param rate transactions per second over all terminals, or null for unlimited
   */
  public record Work(int timeSeconds, int warmupSeconds, Double rate, List<Integer> weights) {
    /**
     * Whether the weights keep clause 5.2.3's minimum mix — Payment at least 43 %, Order-Status,
     * Delivery and Stock-Level at least 4 % each, New-Order the rest — the only mix for which
     * efficiency (tpmC against 12.86 a warehouse) means anything.
     */
    public boolean isSpecMix() {
      return weights.get(0) > 0 && weights.get(1) >= 43 && weights.get(2) >= 4 && weights.get(3) >= 4
          && weights.get(4) >= 4;
    }
  }

  /**
   * One {@code <transactiontype>}; the waits are BenchBase's, in milliseconds: keying time before
   * and think time after each transaction.
   */
  public record TransactionType(String name, long preExecutionWaitMs, long postExecutionWaitMs) {}

  /** The phase of the first work; later works are {@code execute-2}, {@code execute-3} … (see {@link #phase}). */
  public static final String PHASE = "execute";

  /** The phase name of the {@code index}-th work (0-based). */
  public static String phase(int index) {
    return index == 0 ? PHASE : PHASE + "-" + (index + 1);
  }

  /**
   * Each work's time, warm-up, rate and weights (the first as time_s …, later ones under their
   * phase's name: execute-2.time_s …), and each type's keying/think waits.
   */
  public Map<String, String> workParameters(List<Work> works) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < works.size(); i++) {
      Work work = works.get(i);
      String prefix = i == 0 ? "" : phase(i) + ".";
      m.put(prefix + "time_s", Integer.toString(work.timeSeconds()));
      m.put(prefix + "warmup_s", Integer.toString(work.warmupSeconds()));
      m.put(prefix + "rate", work.rate() == null ? "unlimited" : work.rate().toString());
      m.put(prefix + "weights", work.weights().toString());
    }
    for (TransactionType t : transactionTypes) {
      m.put("wait." + t.name(), t.preExecutionWaitMs() + "/" + t.postExecutionWaitMs());
    }
    return m;
  }

  /** Whether terminals key or think at all (clause 5.2.5). */
  public boolean hasWaits() {
    return transactionTypes.stream().anyMatch(t -> t.preExecutionWaitMs() > 0 || t.postExecutionWaitMs() > 0);
  }

  /**
   * Whether every type's keying and mean think times are the spec's (clauses 5.2.5.2 and
   * 5.2.5.4). Efficiency is defined against them: at 10 terminals a warehouse they allow 12.86
   * New-Orders a minute per warehouse. With other waits, or none, it would mean nothing (a run
   * without waits has no ceiling), so it is not shown.
   */
  public boolean hasSpecWaits() {
    return transactionTypes.stream().allMatch(t -> {
      TransactionSpec k = TransactionSpec.named(t.name());
      return t.preExecutionWaitMs() == k.keyingMs() && t.postExecutionWaitMs() == k.meanThinkMs();
    });
  }

  /** The same experiment with the spec's keying and mean think times for every type. */
  public TpccConfig withSpecWaits() {
    List<TransactionType> spec = transactionTypes.stream().map(t -> {
      TransactionSpec k = TransactionSpec.named(t.name());
      return new TransactionType(t.name(), k.keyingMs(), k.meanThinkMs());
    }).toList();
    return new TpccConfig(file, type, driver, url, username, password, isolation, batchSize, scaleFactor, terminals,
        loaderThreads, works, spec);
  }

  private static final Set<String> TOP = Set.of("type", "driver", "url", "username", "password", "isolation",
      "batchsize", "scalefactor", "terminals", "loaderThreads", "works", "transactiontypes", "randomSeed",
      "reconnectOnConnectionFailure", "newConnectionPerTxn");
  /** Elements of yugabyte/tpcc's own config (its workload_all.xml), which BenchBase's lacks. */
  private static final Set<String> YUGABYTE_TPCC = Set.of("dbtype", "DBName", "port", "runtime", "rate",
      "useKeyingTime", "useThinkTime", "jdbcURL", "maxRetriesPerTransaction", "enableForeignKeysAfterLoad",
      "batchSize", "hikariConnectionTimeoutMs", "useStoredProcedures", "displayEnhancedLatencyMetrics",
      "maxLoaderRetries", "sslCert", "sslKey", "trackPerSQLStmtLatencies");
  private static final Set<String> ISOLATIONS = Set.of("TRANSACTION_SERIALIZABLE", "TRANSACTION_REPEATABLE_READ",
      "TRANSACTION_READ_COMMITTED", "TRANSACTION_READ_UNCOMMITTED");

  /** Reads and checks a config file; every problem is a {@link UserError} naming file and line. */
  public static TpccConfig read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      XMLInputFactory f = XMLInputFactory.newFactory();
      f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
      f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
      XMLStreamReader x = f.createXMLStreamReader(in);
      return new Parser(file, x).parse();
    } catch (NoSuchFileException e) {
      throw new UserError("Config file " + file + " does not exist");
    } catch (IOException e) {
      throw new UserError("Cannot read config file " + file + ": " + e.getMessage());
    } catch (XMLStreamException e) {
      Location l = e.getLocation();
      String msg = e.getMessage() == null ? "" : e.getMessage().replaceAll("(?s)^ParseError at \\[.*?\\]\\s*Message:\\s*", "");
      throw new UserError(file + (l != null ? ":" + l.getLineNumber() : "") + ": malformed XML: " + msg.strip());
    }
  }

  /** The same experiment with other warehouses and terminals (command-line overrides). */
  public TpccConfig with(Integer warehouses, Integer terminalCount) {
    return new TpccConfig(file, type, driver, url, username, password, isolation, batchSize,
        warehouses != null ? warehouses : scaleFactor, terminalCount != null ? terminalCount : terminals,
        loaderThreads, works, transactionTypes);
  }

  public TransactionType transaction(String name) {
    return transactionTypes.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static final class Parser {
    private final Path file;
    private final XMLStreamReader x;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<Work> works = new ArrayList<>();
    private final List<TransactionType> types = new ArrayList<>();

    Parser(Path file, XMLStreamReader x) {
      this.file = file;
      this.x = x;
    }

    private UserError error(String message) {
      return new UserError(file + ":" + x.getLocation().getLineNumber() + ": " + message);
    }

    TpccConfig parse() throws XMLStreamException {
      nextStart();
      if (!x.getLocalName().equals("parameters")) {
        throw error("the root element is <" + x.getLocalName() + ">; a BenchBase config starts with <parameters>");
      }
      while (nextChildOf("parameters")) {
        String name = x.getLocalName();
        if (YUGABYTE_TPCC.contains(name)) {
          throw error("<" + name + "> is yugabyte/tpcc's config format; run_tpcc.sh reads BenchBase's: start from "
              + "tpcc/config/yugabyte_100w_spec.xml (the flags of yugabyte/tpcc's command line work as they are)");
        }
        if (!TOP.contains(name)) {
          throw error("unknown element <" + name + "> in <parameters>");
        }
        if (values.containsKey(name) || (name.equals("works") && !works.isEmpty())) {
          throw error("<" + name + "> appears twice");
        }
        switch (name) {
          case "works" -> parseWorks();
          case "transactiontypes" -> parseTransactionTypes();
          case "newConnectionPerTxn" -> {
            if (Boolean.parseBoolean(text())) {
              throw error("<newConnectionPerTxn>true is not supported: terminals keep their connection");
            }
          }
          default -> values.put(name, text());
        }
      }
      return build();
    }

    private TpccConfig build() {
      int scaleFactor = requiredInt("scalefactor", 1);
      int terminals = requiredInt("terminals", 1);
      if (works.isEmpty()) {
        throw new UserError(file + ": <works> with at least one <work> is missing");
      }
      if (types.isEmpty()) {
        throw new UserError(file + ": <transactiontypes> is missing; list the five TPC-C transactions");
      }
      for (Work w : works) {
        if (w.weights().size() != types.size()) {
          throw new UserError(file + ": <weights> lists " + w.weights().size() + " weights for " + types.size()
              + " transaction types");
        }
      }
      String isolation = values.getOrDefault("isolation", "TRANSACTION_SERIALIZABLE");
      if (!ISOLATIONS.contains(isolation)) {
        throw new UserError(file + ": <isolation> " + isolation + " is not one of " + ISOLATIONS);
      }
      Integer loaderThreads = values.containsKey("loaderThreads") ? requiredInt("loaderThreads", 1) : null;
      return new TpccConfig(file, values.getOrDefault("type", "POSTGRES"), values.get("driver"), values.get("url"),
          values.get("username"), values.get("password"), isolation,
          values.containsKey("batchsize") ? requiredInt("batchsize", 1) : 128, scaleFactor, terminals, loaderThreads,
          List.copyOf(works), List.copyOf(types));
    }

    private int requiredInt(String name, int min) {
      String v = values.get(name);
      if (v == null) {
        throw new UserError(file + ": <" + name + "> is missing");
      }
      int n;
      try {
        n = Integer.parseInt(v.strip());
      } catch (NumberFormatException e) {
        throw new UserError(file + ": <" + name + "> must be a whole number, not '" + v.strip() + "'");
      }
      if (n < min) {
        throw new UserError(file + ": <" + name + "> must be at least " + min + ", not " + n);
      }
      return n;
    }

    private void parseWorks() throws XMLStreamException {
      while (nextChildOf("works")) {
        if (!x.getLocalName().equals("work")) {
          throw error("unknown element <" + x.getLocalName() + "> in <works>; expected <work>");
        }
        Integer time = null;
        int warmup = 0;
        Double rate = null;
        List<Integer> weights = null;
        while (nextChildOf("work")) {
          String name = x.getLocalName();
          switch (name) {
            case "time" -> time = positiveInt(name, text(), 1);
            case "warmup" -> warmup = positiveInt(name, text(), 0);
            case "rate" -> rate = parseRate(text());
            case "weights" -> weights = parseWeights(text());
            case "serial", "arrival", "active_terminals" ->
                throw error("<" + name + "> is a BenchBase option this TPC-C driver does not support");
            default -> throw error("unknown element <" + name + "> in <work>");
          }
        }
        if (time == null) {
          throw error("<work> needs a <time> in seconds");
        }
        if (weights == null) {
          throw error("<work> needs <weights>, e.g. 45,43,4,4,4");
        }
        works.add(new Work(time, warmup, rate, weights));
      }
    }

    private Double parseRate(String v) {
      String s = v.strip();
      if (s.equalsIgnoreCase("unlimited")) {
        return null;
      }
      try {
        double r = Double.parseDouble(s);
        if (r > 0) {
          return r;
        }
      } catch (NumberFormatException ignored) {
        // the error below
      }
      throw error("<rate> must be a positive number or 'unlimited', not '" + s + "'");
    }

    private List<Integer> parseWeights(String v) {
      List<Integer> w = new ArrayList<>();
      for (String part : v.split(",")) {
        w.add(positiveInt("weights", part, 0));
      }
      int sum = w.stream().mapToInt(Integer::intValue).sum();
      if (sum != 100) {
        throw error("<weights> " + v.strip() + " sum to " + sum + ", not 100");
      }
      return List.copyOf(w);
    }

    private void parseTransactionTypes() throws XMLStreamException {
      while (nextChildOf("transactiontypes")) {
        if (x.getLocalName().equals("groupings")) {
          throw error("<groupings> is a BenchBase option this TPC-C driver does not support");
        }
        if (!x.getLocalName().equals("transactiontype")) {
          throw error("unknown element <" + x.getLocalName() + "> in <transactiontypes>; expected <transactiontype>");
        }
        String name = null;
        long pre = 0;
        long post = 0;
        while (nextChildOf("transactiontype")) {
          String el = x.getLocalName();
          switch (el) {
            case "name" -> {
              name = text().strip();
              if (!TRANSACTIONS.contains(name)) {
                throw error("unknown transaction '" + name + "'; TPC-C has " + String.join(", ", TRANSACTIONS));
              }
            }
            case "preExecutionWait" -> pre = positiveInt(el, text(), 0);
            case "postExecutionWait" -> post = positiveInt(el, text(), 0);
            case "id" -> text(); // BenchBase's optional numeric id; the order of the list is what counts
            default -> throw error("unknown element <" + el + "> in <transactiontype>");
          }
        }
        if (name == null) {
          throw error("<transactiontype> needs a <name>");
        }
        String n = name;
        if (types.stream().anyMatch(t -> t.name().equals(n))) {
          throw error("transaction " + name + " is listed twice");
        }
        types.add(new TransactionType(name, pre, post));
      }
    }

    private int positiveInt(String element, String v, int min) {
      try {
        int n = Integer.parseInt(v.strip());
        if (n >= min) {
          return n;
        }
      } catch (NumberFormatException ignored) {
        // the error below
      }
      throw error("<" + element + "> must be a whole number of at least " + min + ", not '" + v.strip() + "'");
    }

    /** Moves to the next element start inside {@code parent}; false at the parent's end. */
    private boolean nextChildOf(String parent) throws XMLStreamException {
      while (x.hasNext()) {
        int e = x.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          return true;
        }
        if (e == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals(parent)) {
          return false;
        }
        if (e == XMLStreamConstants.CHARACTERS && !x.isWhiteSpace()) {
          throw error("unexpected text '" + x.getText().strip() + "' in <" + parent + ">");
        }
      }
      return false;
    }

    private void nextStart() throws XMLStreamException {
      while (x.hasNext() && x.next() != XMLStreamConstants.START_ELEMENT) {
        // skip the prolog and comments
      }
    }

    private String text() throws XMLStreamException {
      String name = x.getLocalName();
      try {
        return x.getElementText();
      } catch (XMLStreamException e) {
        throw error("<" + name + "> must hold text only");
      }
    }
  }
}
