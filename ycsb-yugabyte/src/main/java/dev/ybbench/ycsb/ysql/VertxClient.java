package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The event-loop YSQL client ({@code --driver vertx}): Vert.x's PostgreSQL client on a few event
 * loops (epoll), shared by a phase's client threads. The threads stay blocking code — YCSB's
 * workload calls the binding and waits for its answer — but they are virtual threads that the
 * event loops themselves schedule ({@link ClientThreads#scheduledBy}), and each opens its
 * connection on the loop it runs on. A thread that waits for a reply parks and gives its loop back;
 * the loop reads the reply and runs the thread on. An operation then costs no thread switch in the
 * kernel, where pgjdbc's thread per connection costs about one (docs/performance.md has the
 * figures).
 *
 * <p>The threads hold no monitor while they wait (a virtual thread parked inside
 * {@code synchronized} keeps its carrier on Java 21–23, and here the carrier is the loop that
 * would wake it).
 */
public final class VertxClient implements AutoCloseable {
  /** What the threads are refused under when the JVM cannot schedule them on the loops. */
  public static final String FLAG = "--driver vertx";

  private final Vertx vertx;
  private final List<ContextInternal> loops = new ArrayList<>();
  private final List<PgConnectOptions> nodes = new ArrayList<>();
  /** The node of the next connection: a phase's threads go to the nodes in turn. */
  private final AtomicInteger nextNode = new AtomicInteger();

  private VertxClient(int loopCount, YsqlEndpoint endpoint) {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loopCount).setPreferNativeTransport(true));
    for (int i = 0; i < loopCount; i++) {
      loops.add(((VertxInternal) vertx).createEventLoopContext()); // the pool's loops in turn
    }
    for (HostList.HostPort h : endpoint.hosts().hosts()) {
      nodes.add(new PgConnectOptions().setHost(h.host()).setPort(h.port()).setDatabase(endpoint.database())
          .setUser(endpoint.user()).setPassword(endpoint.password()).setCachePreparedStatements(true)
          .setConnectTimeout(10_000).addProperty("application_name", "ybbench"));
    }
  }

  /** A client with {@code loopCount} event loops for the nodes of {@code endpoint}. */
  public static VertxClient start(int loopCount, YsqlEndpoint endpoint) {
    return new VertxClient(loopCount, endpoint);
  }

  /** The phase's client threads: virtual threads on these loops, in turn. */
  public ClientThreads threads() {
    List<Executor> executors = loops.stream().map(c -> (Executor) c.nettyEventLoop()).toList();
    return ClientThreads.scheduledBy(executors, FLAG);
  }

  /** Whether Netty's epoll transport carries the connections (else Java's selector). */
  public boolean epoll() {
    return vertx.isNativeTransportEnabled();
  }

  /**
   * A connection for the calling thread, to the next node in turn, on the loop the thread runs on
   * (on a thread of no loop, the next loop in turn).
   */
  public PgConnection connect() throws SQLException {
    Executor scheduler = ClientThreads.scheduler();
    ContextInternal loop = null;
    for (ContextInternal c : loops) {
      if (c.nettyEventLoop() == scheduler) {
        loop = c;
      }
    }
    if (loop == null) {
      loop = loops.get(Math.floorMod(nextNode.get(), loops.size()));
    }
    PgConnectOptions node = nodes.get(Math.floorMod(nextNode.getAndIncrement(), nodes.size()));
    // Connected from a task of the loop, the connection is that loop's.
    return await(loop.succeededFuture().compose(v -> PgConnection.connect(vertx, node)));
  }

  /**
   * The future's result; the calling thread parks until it is done. On a loop's virtual thread the
   * loop runs other threads meanwhile, and the reply's callback wakes this one on the same loop.
   * An interrupt does not end the wait (the reply is on its way); it is kept for the caller.
   */
  public static <T> T await(Future<T> f) throws SQLException {
    if (!f.isComplete()) {
      Thread waiting = Thread.currentThread();
      f.onComplete(ar -> LockSupport.unpark(waiting));
      boolean interrupted = false;
      while (!f.isComplete()) {
        LockSupport.park(f);
        interrupted |= Thread.interrupted();
      }
      if (interrupted) {
        waiting.interrupt();
      }
    }
    if (f.failed()) {
      throw sqlException(f.cause());
    }
    return f.result();
  }

  /**
   * Vert.x's failure as JDBC would report it, so that one classification ({@code SqlErrors}) and
   * one retry policy serve both drivers: the server's SQLSTATE; a closed connection, a refused or
   * timed-out connect, a socket's failure as class 08 (the connection is lost); anything else
   * without a state.
   */
  static SQLException sqlException(Throwable e) {
    if (e instanceof PgException pg) {
      return new SQLException(pg.getErrorMessage(), pg.getSqlState(), e);
    }
    if (e instanceof ClosedConnectionException) {
      return new SQLException("the connection was closed", "08006", e);
    }
    if (e instanceof ConnectException || e instanceof ConnectTimeoutException) {
      return new SQLException("cannot connect: " + e.getMessage(), "08001", e);
    }
    if (e instanceof IOException) { // the socket failed under the connection: reset, broken pipe
      return new SQLException(e.getMessage(), "08006", e);
    }
    return new SQLException(String.valueOf(e.getMessage() == null ? e : e.getMessage()), (String) null, e);
  }

  /** Closes the loops, and the connections still open on them. */
  @Override
  public void close() {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the process is ending this phase; its loops' threads are daemons
    }
  }
}
