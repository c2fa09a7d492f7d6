import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor under a Java client's point reads, for drivers.sh: one prepared single-row read in a
 * closed loop on each of N connections, with nothing around it (no workload, no measurement but a
 * count), driven one of three ways:
 *
 * <ul>
 *   <li>{@code jdbc}: pgjdbc, an OS thread per connection blocking on its socket, as YCSB's client
 *       threads do;
 *   <li>{@code vertx}: the Vert.x reactive client on JOBS event loops (epoll when Netty's native
 *       transport is on the class path), each connection's next read sent from the previous one's
 *       completion, as each pgbench thread polls its connections;
 *   <li>{@code loom}: blocking code again, each connection's loop a virtual thread whose scheduler is
 *       one of the JOBS event loops, waiting on the Vert.x client's futures: a thread per
 *       connection in the code, an event loop per core underneath (Java 21 or later, with
 *       {@code --add-opens java.base/java.lang=ALL-UNNAMED}: Java has no public API for a virtual
 *       thread's scheduler).
 * </ul>
 *
 * <p>TABLE {@code pgbench} reads pgbench_accounts by aid, as {@code pgbench -S} does; {@code ycsb}
 * reads usertable (database ycsb) by YCSB's key, as workloadc's reads do. Prints "OPS_PER_S
 * CPU_US_PER_OP": reads a second and the process's CPU (user + system, every thread, the JIT's too)
 * per read, both over SECONDS after WARMUP seconds.
 *
 * <p>{@code java -cp "<pgjdbc and vertx-pg-client jars>" PointReads.java ENGINE TABLE HOST:PORT
 * CONNECTIONS JOBS WARMUP SECONDS ROWS}
 */
public class PointReads {
  public static void main(String[] args) throws Exception {
    String engine = args[0];
    boolean ycsb = switch (args[1]) {
      case "pgbench" -> false;
      case "ycsb" -> true;
      default -> throw new IllegalArgumentException("table pgbench or ycsb, was " + args[1]);
    };
    String host = args[2].substring(0, args[2].lastIndexOf(':'));
    int port = Integer.parseInt(args[2].substring(args[2].lastIndexOf(':') + 1));
    int connections = Integer.parseInt(args[3]);
    int jobs = Integer.parseInt(args[4]);
    long warmup = Long.parseLong(args[5]);
    long seconds = Long.parseLong(args[6]);
    int rows = Integer.parseInt(args[7]);
    Table table = new Table(ycsb, rows);
    LongAdder reads = new LongAdder();
    AtomicBoolean running = new AtomicBoolean(true);
    switch (engine) {
      case "jdbc" -> threads(host, port, connections, table, reads, running);
      case "vertx" -> vertx(host, port, connections, jobs, table, reads, running, false);
      case "loom" -> vertx(host, port, connections, jobs, table, reads, running, true);
      default -> throw new IllegalArgumentException("engine jdbc, vertx or loom, was " + engine);
    }
    TimeUnit.SECONDS.sleep(warmup);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long n0 = reads.sum();
    long t0 = System.nanoTime();
    TimeUnit.SECONDS.sleep(seconds);
    long n = reads.sum() - n0;
    long cpu = os.getProcessCpuTime() - cpu0;
    double wall = (System.nanoTime() - t0) / 1e9;
    running.set(false);
    System.out.printf("%.0f %.1f%n", n / wall, cpu / 1e3 / n);
    System.exit(0);
  }

  /** The statement and its keys. */
  record Table(boolean ycsb, int rows) {
    String database() {
      return ycsb ? "ycsb" : "postgres";
    }

    String sql() {
      return ycsb ? "SELECT * FROM usertable WHERE ycsb_key = $1" : "SELECT abalance FROM pgbench_accounts WHERE aid = $1";
    }

    /** A uniformly drawn key: aid from 1, or YCSB's "user" and the FNV-1a hash of the key number. */
    Object key(ThreadLocalRandom random) {
      if (!ycsb) {
        return random.nextInt(1, rows + 1);
      }
      long n = random.nextInt(rows);
      long hash = 0xCBF29CE484222325L;
      for (int i = 0; i < 8; i++) {
        hash ^= n & 0xff;
        n >>= 8;
        hash *= 1099511628211L;
      }
      return "user" + Math.abs(hash);
    }
  }

  /** Each connection on a thread of its own. */
  static void threads(String host, int port, int connections, Table table, LongAdder reads, AtomicBoolean running)
      throws InterruptedException {
    String url = "jdbc:postgresql://" + host + ":" + port + "/" + table.database() + "?user=postgres&prepareThreshold=1";
    CountDownLatch connected = new CountDownLatch(connections);
    for (int i = 0; i < connections; i++) {
      Runnable loop = () -> {
        try (Connection c = DriverManager.getConnection(url);
            PreparedStatement ps = c.prepareStatement(table.sql().replace("$1", "?"))) {
          connected.countDown();
          ThreadLocalRandom random = ThreadLocalRandom.current();
          while (running.get()) {
            ps.setObject(1, table.key(random));
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                reads.increment();
              }
            }
          }
        } catch (Exception e) {
          e.printStackTrace();
          System.exit(1);
        }
      };
      new Thread(loop, "reader-" + i).start();
    }
    connected.await();
  }

  /**
   * Each connection on its event loop: a chain of completions, or ({@code loom}) a virtual thread
   * scheduled on the loop that parks until each read completes.
   */
  static void vertx(String host, int port, int connections, int jobs, Table table, LongAdder reads,
      AtomicBoolean running, boolean loom) throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(jobs).setPreferNativeTransport(true));
    System.err.println("Vert.x on " + (vertx.isNativeTransportEnabled() ? "epoll" : "Java NIO"));
    PgConnectOptions options = new PgConnectOptions().setHost(host).setPort(port).setDatabase(table.database())
        .setUser("postgres").setCachePreparedStatements(true);
    CountDownLatch connected = new CountDownLatch(connections);
    for (int i = 0; i < connections; i++) {
      ContextInternal loop = ((VertxInternal) vertx).createEventLoopContext(); // the loops in turn
      if (loom) {
        virtualThreadOn(loop.nettyEventLoop(), "reader-" + i, () -> {
          PgConnection c = await(loop.succeededFuture().compose(v -> PgConnection.connect(vertx, options)));
          PreparedQuery<RowSet<Row>> query = c.preparedQuery(table.sql());
          connected.countDown();
          while (running.get()) {
            if (await(query.execute(Tuple.of(table.key(ThreadLocalRandom.current())))).iterator().hasNext()) {
              reads.increment();
            }
          }
        });
        continue;
      }
      loop.runOnContext(v -> PgConnection.connect(vertx, options).onSuccess(c -> {
        connected.countDown();
        new Object() {
          final PreparedQuery<RowSet<Row>> query = c.preparedQuery(table.sql());

          void next() {
            query.execute(Tuple.of(table.key(ThreadLocalRandom.current()))).onComplete(ar -> {
              if (ar.failed()) {
                ar.cause().printStackTrace();
                System.exit(1);
              }
              if (ar.result().iterator().hasNext()) {
                reads.increment();
              }
              if (running.get()) {
                next();
              }
            });
          }
        }.next();
      }).onFailure(e -> {
        e.printStackTrace();
        System.exit(1);
      }));
    }
    if (!connected.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("connections not open after 30 s");
    }
  }

  /**
   * Starts {@code task} as a virtual thread that {@code scheduler} runs: java.lang's builder of
   * such threads, reached by reflection (Java 21 or later).
   */
  static void virtualThreadOn(Executor scheduler, String name, Runnable task) throws Exception {
    Constructor<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder")
        .getDeclaredConstructor(Executor.class);
    builder.setAccessible(true);
    Object b = builder.newInstance(scheduler);
    Class<?> api = Class.forName("java.lang.Thread$Builder");
    api.getMethod("name", String.class).invoke(b, name);
    Runnable failing = () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        e.printStackTrace();
        System.exit(1);
      }
    };
    api.getMethod("start", Runnable.class).invoke(b, failing);
  }

  /**
   * The future's result, the calling virtual thread parked until it is done: its carrier, the
   * event loop, runs other connections' work meanwhile.
   */
  static <T> T await(Future<T> f) {
    if (!f.isComplete()) {
      Thread waiting = Thread.currentThread();
      f.onComplete(ar -> LockSupport.unpark(waiting));
      while (!f.isComplete()) {
        LockSupport.park();
      }
    }
    if (f.failed()) {
      throw new IllegalStateException(f.cause());
    }
    return f.result();
  }
}
