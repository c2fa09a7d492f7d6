package dev.ybbench.harness.run;

import dev.ybbench.harness.UserError;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a phase's client threads run: one OS thread each (the default, as YCSB's), or, with
 * {@code --jobs N}, as virtual threads over N OS threads, the way pgbench's {@code -j N} drives its
 * {@code -c} clients from N threads. Each client still has its own connection and runs one
 * operation at a time; only the waiting changes. With many more clients than cores, an OS thread
 * per client costs a kernel context switch per operation; virtual threads park in the JVM, and
 * their carriers poll for the sockets that are ready. With few clients the poller costs more than
 * it saves (docs/performance.md has the figures).
 *
 * <p>A third kind serves an event-loop driver ({@link #scheduledBy}): virtual threads that the
 * driver's event loops themselves schedule, so a client thread that waits for its reply yields the
 * very OS thread that will read it, and an operation costs no thread switch at all.
 *
 * <p>Virtual threads came in Java 21; the project builds for 17, so they are reached by
 * reflection, and asking for them on an older JVM is refused before anything starts.
 */
public final class ClientThreads {
  /** The JVM's property for the virtual threads' carriers, read once, when the first one starts. */
  static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

  /** The scheduler of the client thread running now, with {@link #scheduledBy}; else null. */
  private static final ThreadLocal<Executor> SCHEDULER = new ThreadLocal<>();

  private final int jobs;
  private final MethodHandle ofVirtual;
  private final MethodHandle name;
  private final MethodHandle unstarted;
  /** With {@link #scheduledBy}: the schedulers, taken in turn, and java.lang's builder of such threads. */
  private final List<? extends Executor> schedulers;
  private final Constructor<?> scheduledBuilder;
  private final AtomicInteger next = new AtomicInteger();

  private ClientThreads(int jobs, MethodHandle ofVirtual, MethodHandle name, MethodHandle unstarted,
      List<? extends Executor> schedulers, Constructor<?> scheduledBuilder) {
    this.jobs = jobs;
    this.ofVirtual = ofVirtual;
    this.name = name;
    this.unstarted = unstarted;
    this.schedulers = schedulers;
    this.scheduledBuilder = scheduledBuilder;
  }

  /** One OS thread per client thread. */
  public static ClientThreads platform() {
    return new ClientThreads(0, null, null, null, List.of(), null);
  }

  /**
   * Client threads as virtual threads over {@code jobs} OS threads; {@code flag} names the option
   * in the error when this JVM has none.
   */
  public static ClientThreads virtual(int jobs, String flag) {
    if (jobs < 1) {
      throw new UserError(flag + " must be at least 1, was " + jobs);
    }
    int feature = needJava21(flag);
    try {
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandle of = l.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
      MethodHandle name = l.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
      MethodHandle unstarted = l.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
      carriers(jobs);
      return new ClientThreads(jobs, of, name, unstarted, List.of(), null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Java " + feature + " has no Thread.ofVirtual()", e);
    }
  }

  /**
   * Client threads as virtual threads that {@code schedulers} run, each thread on the next one in
   * turn; {@code flag} names what asked for them in the error when this JVM cannot. Java has no
   * public API for a virtual thread's scheduler: java.lang's own builder takes one, reached by
   * reflection, which needs {@code --add-opens java.base/java.lang=ALL-UNNAMED} (run_ycsb.sh passes it).
   */
  public static ClientThreads scheduledBy(List<? extends Executor> schedulers, String flag) {
    Constructor<?> builder = scheduledBuilder(flag);
    try {
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      Class<?> api = Class.forName("java.lang.Thread$Builder");
      MethodHandle name = l.findVirtual(api, "name", MethodType.methodType(api, String.class));
      MethodHandle unstarted = l.findVirtual(api, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
      return new ClientThreads(schedulers.size(), null, name, unstarted, List.copyOf(schedulers), builder);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Java " + Runtime.version().feature() + " has no Thread.Builder", e);
    }
  }

  /**
   * Refuses, as a {@link UserError} naming {@code flag}, a JVM on which {@link #scheduledBy}
   * cannot make its threads: older than 21, or java.lang not opened to the harness. For the
   * settings' check, before anything starts.
   */
  public static void checkScheduledBy(String flag) {
    scheduledBuilder(flag);
  }

  private static Constructor<?> scheduledBuilder(String flag) {
    needJava21(flag);
    if (!Thread.class.getModule().isOpen("java.lang", ClientThreads.class.getModule())) {
      throw new UserError(flag + " schedules its client threads on its event loops, which needs the JVM option "
          + "--add-opens java.base/java.lang=ALL-UNNAMED (run_ycsb.sh passes it; a YBBENCH_JAVA_OPTS of your own "
          + "must too)");
    }
    try {
      Constructor<?> c = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder")
          .getDeclaredConstructor(Executor.class);
      c.setAccessible(true);
      return c;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new UserError(flag + " needs a JVM whose virtual threads take a scheduler (OpenJDK 21 or later); this "
          + "one has none (" + e + ")");
    }
  }

  private static int needJava21(String flag) {
    int feature = Runtime.version().feature();
    if (feature < 21) {
      throw new UserError(flag + " runs the client threads as virtual threads, which need Java 21 or later; this is "
          + "Java " + feature + " (put a newer JDK's bin first on PATH, or leave " + flag + " out)");
    }
    return feature;
  }

  /**
   * The scheduler the calling client thread runs on, when its threads are {@link #scheduledBy}
   * some; else null. The event-loop driver opens the thread's connection on that loop.
   */
  public static Executor scheduler() {
    return SCHEDULER.get();
  }

  /**
   * Sets the carriers' count for this JVM's virtual threads. The JVM reads it once, so a second
   * run in the same process (tests) with another count would silently get the first: refused.
   */
  private static synchronized void carriers(int jobs) {
    String set = System.getProperty(PARALLELISM);
    if (set == null) {
      System.setProperty(PARALLELISM, Integer.toString(jobs));
    } else if (!set.equals(Integer.toString(jobs))) {
      throw new UserError("this JVM already runs virtual threads on " + set + " OS threads (" + PARALLELISM
          + "); it cannot change to " + jobs);
    }
  }

  /** An unstarted client thread of this kind. */
  public Thread newThread(Runnable body, String threadName) {
    if (jobs == 0) {
      return new Thread(body, threadName);
    }
    try {
      if (scheduledBuilder != null) {
        Executor on = schedulers.get(Math.floorMod(next.getAndIncrement(), schedulers.size()));
        Object b = name.invoke(scheduledBuilder.newInstance(on), threadName);
        return (Thread) unstarted.invoke(b, (Runnable) () -> {
          SCHEDULER.set(on);
          body.run();
        });
      }
      Object b = ofVirtual.invoke();
      b = name.invoke(b, threadName);
      return (Thread) unstarted.invoke(b, body);
    } catch (Throwable e) {
      throw new IllegalStateException("cannot start a virtual thread", e);
    }
  }

  /** The OS threads the clients run on (event loops with {@link #scheduledBy}), or 0 for one each. */
  public int jobs() {
    return jobs;
  }

  /**
   * For what a run prints after its thread count: "" for OS threads, else ", virtual on N OS
   * threads" or ", virtual on N event loops".
   */
  public String describe() {
    return jobs == 0 ? "" : ", virtual on " + jobs + (scheduledBuilder != null ? " event loop" : " OS thread")
        + (jobs == 1 ? "" : "s");
  }
}
