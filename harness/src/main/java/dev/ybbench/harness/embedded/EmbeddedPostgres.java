package dev.ybbench.harness.embedded;

import dev.ybbench.harness.FileTrees;
import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server started from the zonky binaries on Maven Central, on a free
 * 127.0.0.1 port, for the YSQL path when no hosts are given (YSQL speaks PostgreSQL's protocol).
 *
 * <p>Layout under {@code <tmp>/ybbench-<uid>/}: {@code postgres-<version>/} holds the unpacked
 * binaries (kept between runs), {@code instances/pg-<port>/} one running server's data, socket
 * directory, log and owner ({@link Instances}: a server left by a killed run is stopped on the
 * next start).
 */
public final class EmbeddedPostgres implements AutoCloseable {
  public static final String SUPERUSER = "postgres";

  private final String version;
  private final int port;
  private final Path binDir;
  private final Path instanceDir;
  private final ServerUser user;
  private final Consumer<String> log;
  private boolean stopped;

  private EmbeddedPostgres(String version, int port, Path binDir, Path instanceDir, ServerUser user,
      Consumer<String> log) {
    this.version = version;
    this.port = port;
    this.binDir = binDir;
    this.instanceDir = instanceDir;
    this.user = user;
    this.log = log;
  }

  /**
   * Starts a server.
   *
   * @param requestedVersion a major ("16"), an exact release ("16.11.0") or null for the default
   * @param maxConnections   the server's max_connections: the benchmark's connections plus headroom
   * @param log              where progress lines go
   */
  public static EmbeddedPostgres start(String requestedVersion, int maxConnections, Consumer<String> log) {
    return start(requestedVersion, maxConnections, Map.of(), log);
  }

  /**
   * Starts a server with {@code settings} added to its postgresql.conf after ybbench's own (the
   * server under test as a build would configure it: --db-setting).
   */
  public static EmbeddedPostgres start(String requestedVersion, int maxConnections, Map<String, String> settings,
      Consumer<String> log) {
    String version = PostgresVersions.resolve(requestedVersion);
    Path jar = PostgresVersions.artifact(version).resolve("PostgreSQL " + version);
    return start(jar, version, maxConnections, settings, log);
  }

  /** Starts a server from a zonky binaries jar already on disk. */
  public static EmbeddedPostgres start(Path jar, String version, int maxConnections, Consumer<String> log) {
    return start(jar, version, maxConnections, Map.of(), log);
  }

  private static EmbeddedPostgres start(Path jar, String version, int maxConnections, Map<String, String> settings,
      Consumer<String> log) {
    ServerUser user = ServerUser.forServer();
    Path base = Instances.base();
    try {
      ServerUser.createTraversableDir(base);
      Path binDir = unpack(jar, base.resolve("postgres-" + version));
      Path instances = Instances.root();
      ServerUser.createTraversableDir(instances);
      stopAbandoned(log);

      int port = freePort();
      Path instanceDir = instances.resolve("pg-" + port);
      FileTrees.delete(instanceDir);
      ServerUser.createTraversableDir(instanceDir);
      Files.createDirectories(instanceDir.resolve("sock"));
      Instances.claim(instanceDir, binDir.toString());
      user.own(instanceDir);

      EmbeddedPostgres pg = new EmbeddedPostgres(version, port, binDir, instanceDir, user, log);
      try {
        pg.initdb();
        pg.configure(maxConnections, settings);
        pg.pgCtl("start", "-w", "-t", "120", "-l", instanceDir.resolve("server.log").toString());
      } catch (RuntimeException e) {
        pg.close();
        throw e;
      }
      return pg;
    } catch (IOException e) {
      throw new UserError("Cannot prepare the embedded PostgreSQL under " + base + ": " + e.getMessage());
    }
  }

  public String version() {
    return version;
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return port;
  }

  /** "127.0.0.1:port", the form --hosts takes. */
  public String hostPort() {
    return host() + ":" + port;
  }

  public String user() {
    return SUPERUSER;
  }

  /** The server's process id (the postmaster), read from its pid file. */
  public long pid() {
    return Instances.readPid(dataDir().resolve("postmaster.pid"))
        .orElseThrow(() -> new IllegalStateException("no postmaster.pid in " + dataDir()));
  }

  public String serverUser() {
    return user.name();
  }

  /**
   * Restarts the server in place (same port and data): its sessions are cut, as in a crash
   * recovery or a rolling restart, and clients must reconnect.
   */
  public synchronized void restart() {
    pgCtl("restart", "-m", "fast", "-w", "-t", "120", "-l", instanceDir.resolve("server.log").toString());
  }

  /**
   * Stops the server and deletes its data. Idempotent. "immediate": its data is deleted next, so
   * the shutdown checkpoint of a fast stop is work for nothing, and after a TPC-C load it writes
   * every dirty page (seconds on a busy machine, which Ctrl-C would wait for). An interrupt
   * (Ctrl-C) does not cut it short: the commands run to their end.
   */
  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    // A pid file whose process is gone or a zombie needs no stop, and pg_ctl would refuse it.
    Optional<Long> pid = Instances.readPid(dataDir().resolve("postmaster.pid"));
    Optional<ProcessHandle> server = pid.flatMap(p -> ProcessHandle.of(Math.abs(p))).filter(Commands::running);
    if (server.isPresent()) {
      if (pid.get() < 0) {
        // A single-user backend (negative pid): one initdb started as Ctrl-C killed it. Nothing
        // in it is kept, and pg_ctl does not stop single-user backends.
        server.get().destroyForcibly();
      } else {
        Commands.Result r = run(user.wrap(List.of(binDir.resolve("bin/pg_ctl").toString(), "-D",
            dataDir().toString(), "-m", "immediate", "-w", "-t", "60", "stop")));
        if (r.exitCode() != 0 && Commands.running(server.get())) {
          log.accept("warning: stopping PostgreSQL on port " + port + " failed: " + r.output().strip());
          return; // keep the directory so the next start finds and stops the server
        }
      }
      // pg_ctl returns once the pid file is gone; the process itself may take a moment longer.
      awaitExit(server.get());
    }
    // A backend initdb started as Ctrl-C killed it ends by itself within moments (its input is
    // gone); what it wrote meanwhile goes with another pass.
    FileTrees.delete(instanceDir);
    boolean interrupted = Thread.interrupted(); // Ctrl-C's, which this finishes first
    for (int i = 0; i < 20 && Files.exists(instanceDir); i++) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        interrupted = true;
      }
      FileTrees.delete(instanceDir);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private Path dataDir() {
    return instanceDir.resolve("data");
  }

  private void initdb() {
    // -k: data checksums on for every version (18 enables them by default, older ones do not),
    // so a version-to-version comparison compares like with like.
    // The one step Ctrl-C does not wait for: it is killed, and close() removes what it wrote.
    Commands.Result r = Commands.runKillable(serverCommand(user.wrap(List.of(binDir.resolve("bin/initdb").toString(),
        "-D", dataDir().toString(), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8", "--locale=C", "-k"))), TEN_MINUTES);
    if (r.exitCode() != 0) {
      throw new UserError("initdb for PostgreSQL " + version + " failed: " + lastLines(r.output()));
    }
  }

  /** A setting's name as postgresql.conf takes it (extensions' names have a dot). */
  private static final java.util.regex.Pattern SETTING = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z0-9_]+)?");

  /** Refuses a setting postgresql.conf could not take, naming it, before anything starts. */
  public static void checkSetting(String name) {
    if (!SETTING.matcher(name).matches()) {
      throw new UserError("--db-setting takes NAME=VALUE with a PostgreSQL setting's name (e.g. enable_seqscan=off), "
          + "not '" + name + "'");
    }
  }

  /**
   * PostgreSQL 11 refuses to start unless max_connections exceeds superuser_reserved_connections
   * (3) plus max_wal_senders (10), however few connections the benchmark needs; from 12 on the
   * WAL senders have slots of their own.
   */
  private int maxConnections(int asked) {
    return Integer.parseInt(version.split("\\.")[0]) < 12 ? Math.max(asked, 14) : asked;
  }

  private void configure(int maxConnections, Map<String, String> extra) throws IOException {
    long ramMb = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize() >> 20;
    // The usual starting point for a dedicated server: a quarter of RAM for shared buffers.
    long sharedBuffersMb = Math.max(128, Math.min(ramMb / 4, 8192));
    String settings = String.join("\n",
        "",
        "# ybbench: settings for benchmarking (appended after initdb's defaults)",
        "listen_addresses = '127.0.0.1'",
        "port = " + port,
        "unix_socket_directories = '" + instanceDir.resolve("sock") + "'",
        "max_connections = " + maxConnections(maxConnections),
        "shared_buffers = '" + sharedBuffersMb + "MB'",
        "effective_cache_size = '" + Math.max(256, ramMb / 2) + "MB'",
        "fsync = on",
        "synchronous_commit = on",
        // Fewer forced checkpoints in the middle of a measurement.
        "max_wal_size = '4GB'",
        "checkpoint_timeout = '15min'",
        // SERIALIZABLE keeps a committed transaction's predicate locks while overlapping ones run:
        // TPC-C's Delivery alone at 64 terminals ran the default of 64 out (SQLSTATE 53200 on 63 %
        // of them). 1,024 per connection costs a few MB of shared memory.
        "max_pred_locks_per_transaction = 1024",
        "log_min_messages = warning",
        // The server's own count of every statement, for the client-versus-server audit of each run.
        Files.exists(binDir.resolve("lib/postgresql/pg_stat_statements.so"))
            ? "shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.max = 1000" : "",
        "");
    StringBuilder given = new StringBuilder();
    extra.forEach((name, value) -> {
      checkSetting(name);
      given.append(name).append(" = '").append(value.replace("'", "''")).append("'\n");
    });
    Files.writeString(dataDir().resolve("postgresql.conf"), settings + (given.length() == 0 ? ""
        : "# --db-setting: the server under test as it was asked for (the last of a name wins)\n" + given),
        StandardOpenOption.APPEND);
  }

  private void pgCtl(String action, String... args) {
    List<String> cmd = new ArrayList<>(List.of(binDir.resolve("bin/pg_ctl").toString(), "-D", dataDir().toString()));
    cmd.addAll(List.of(args));
    cmd.add(action);
    Commands.Result r = run(user.wrap(cmd));
    if (r.exitCode() != 0) {
      String serverLog = "";
      try {
        serverLog = lastLines(Files.readString(instanceDir.resolve("server.log")));
      } catch (IOException ignored) {
        // no log yet
      }
      throw new UserError("PostgreSQL " + version + " did not " + action + ": " + lastLines(r.output()) + " " + serverLog);
    }
  }

  /** A server command, run to its end even after Ctrl-C (see {@link Commands}). */
  private static Commands.Result run(List<String> command) {
    return Commands.run(serverCommand(command), TEN_MINUTES);
  }

  /** The server runs in a clean environment: no locale or PG* variables leak into it. */
  private static ProcessBuilder serverCommand(List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return pb;
  }

  /** pg_ctl bounds its own waits (-t); this only keeps a hung command from hanging the harness. */
  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  /** Unpacks the binaries once per version; concurrent starts race safely through a rename. */
  private static Path unpack(Path jar, Path binDir) throws IOException {
    if (Files.isExecutable(binDir.resolve("bin/postgres"))) {
      return binDir;
    }
    Path tmp = binDir.resolveSibling(binDir.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    FileTrees.delete(tmp);
    try {
      TxzArchive.extractFromJar(jar, tmp);
    } catch (IOException e) {
      FileTrees.delete(tmp); // interrupted by Ctrl-C, or a full disk: the next start unpacks afresh
      throw e;
    }
    makeTraversable(tmp);
    try {
      Files.move(tmp, binDir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      FileTrees.delete(tmp);
      if (!Files.isExecutable(binDir.resolve("bin/postgres"))) {
        throw e;
      }
    }
    return binDir;
  }

  private static void makeTraversable(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          ServerUser.createTraversableDir(p);
        }
      }
    }
  }

  /** Stops servers whose owning harness process has gone (a run that was killed). */
  private static void stopAbandoned(Consumer<String> log) throws IOException {
    Instances.stopAbandoned("pg-*", (dir, owner) -> {
      Path pgCtl = owner.size() < 2 ? null : Path.of(owner.get(1), "bin/pg_ctl");
      if (pgCtl != null && Files.exists(dir.resolve("data/postmaster.pid")) && Files.isExecutable(pgCtl)) {
        log.accept("Stopping an embedded PostgreSQL left running by an earlier run (" + dir.getFileName() + ")");
        Optional<ProcessHandle> postmaster = Instances.readPid(dir.resolve("data/postmaster.pid"))
            .flatMap(ProcessHandle::of);
        run(ServerUser.forServer().wrap(List.of(pgCtl.toString(), "-D", dir.resolve("data").toString(), "-m",
            "immediate", "-w", "stop")));
        postmaster.ifPresent(EmbeddedPostgres::awaitExit);
      }
    });
  }

  /** Still there after 30 s: left to the next start's clean-up. */
  private static void awaitExit(ProcessHandle process) {
    Commands.awaitGone(process, Duration.ofSeconds(30));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }

  private static String lastLines(String text) {
    String[] lines = text.strip().split("\n");
    int from = Math.max(0, lines.length - 3);
    return String.join(" | ", java.util.Arrays.copyOfRange(lines, from, lines.length)).strip();
  }
}
