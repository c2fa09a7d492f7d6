package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.UserError;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Which client of a fleet this run is (a picocli mixin): several clients, on one machine or many,
 * driving one server at once, each its own run, added up afterwards by --merge ({@link
 * MergeOptions}), which tells from run.json's fleet block whether every client is there.
 */
public final class FleetOptions {
  /** What a fleet id may be: it is written into the table's mark and matched by the other clients. */
  public static final String ID = "[A-Za-z0-9._-]{1,64}";

  @Option(names = "--clients", paramLabel = "N", defaultValue = "1", descriptionKey = "clients",
      description = "clients (processes or machines) running this at once against one server, each its own run, "
          + "merged afterwards with --merge (default: ${DEFAULT-VALUE})")
  public int clients;

  @Option(names = "--client-index", paramLabel = "I", defaultValue = "0", descriptionKey = "client-index",
      description = "which of the --clients this is, 0 … N-1 (default: ${DEFAULT-VALUE})")
  public int clientIndex;

  @Option(names = "--fleet", paramLabel = "ID", descriptionKey = "fleet",
      description = "the clients' shared id (letters, digits, . _ -), kept in each client's run.json")
  public String id;

  /** Refuses a client count, index or id that means nothing, before anything starts. */
  public void check() {
    if (clients < 1) {
      throw new UserError("--clients must be at least 1, was " + clients);
    }
    if (clientIndex < 0 || clientIndex >= clients) {
      throw new UserError("--client-index must be 0 … " + (clients - 1) + " for --clients " + clients + ", was "
          + clientIndex);
    }
    if (id != null && !id.matches(ID)) {
      throw new UserError("--fleet '" + id + "' must be 1-64 letters, digits, '.', '_' or '-'");
    }
  }

  /** Whether this run is one client of several (or names its fleet). */
  public boolean inFleet() {
    return clients > 1 || id != null;
  }

  /** run.json's fleet block: --merge knows from it when a client is missing, fleet.sh finds each client's run by it. */
  public Map<String, Object> runJson() {
    Map<String, Object> fleet = new LinkedHashMap<>();
    fleet.put("id", id);
    fleet.put("clients", clients);
    fleet.put("index", clientIndex);
    return fleet;
  }
}
