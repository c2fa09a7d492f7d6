package dev.ybbench.harness.run;

import dev.ybbench.harness.UserError;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * How a phase's client threads run: one OS thread each (the default, as YCSB's), or, with
 * {@code --jobs N}, as virtual threads over N OS threads, the way pgbench's {@code -j N} drives its
 * {@code -c} clients from N threads. Each client still has its own connection and runs one
 * operation at a time; only the waiting changes. With many more clients than cores, an OS thread
 * per client costs a kernel context switch per operation; virtual threads park in the JVM, and
 * their carriers poll for the sockets that are ready. With few clients the poller costs more than
 * it saves (docs/performance.md has the figures).
 *
 * <p>Virtual threads came in Java 21; the project builds for 17, so they are reached by
 * reflection, and asking for them on an older JVM is refused before anything starts.
 */
public final class ClientThreads {
  /** The JVM's property for the virtual threads' carriers, read once, when the first one starts. */
  static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

  private final int jobs;
  private final MethodHandle ofVirtual;
  private final MethodHandle name;
  private final MethodHandle unstarted;

  private ClientThreads(int jobs, MethodHandle ofVirtual, MethodHandle name, MethodHandle unstarted) {
    this.jobs = jobs;
    this.ofVirtual = ofVirtual;
    this.name = name;
    this.unstarted = unstarted;
  }

  /** One OS thread per client thread. */
  public static ClientThreads platform() {
    return new ClientThreads(0, null, null, null);
  }

  /**
   * Client threads as virtual threads over {@code jobs} OS threads; {@code flag} names the option
   * in the error when this JVM has none.
   */
  public static ClientThreads virtual(int jobs, String flag) {
    if (jobs < 1) {
      throw new UserError(flag + " must be at least 1, was " + jobs);
    }
    int feature = Runtime.version().feature();
    if (feature < 21) {
      throw new UserError(flag + " runs the client threads as virtual threads, which need Java 21 or later; this is "
          + "Java " + feature + " (put a newer JDK's bin first on PATH, or leave " + flag + " out)");
    }
    try {
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandle of = l.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
      MethodHandle name = l.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
      MethodHandle unstarted = l.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
      carriers(jobs);
      return new ClientThreads(jobs, of, name, unstarted);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Java " + feature + " has no Thread.ofVirtual()", e);
    }
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
      Object b = ofVirtual.invoke();
      b = name.invoke(b, threadName);
      return (Thread) unstarted.invoke(b, body);
    } catch (Throwable e) {
      throw new IllegalStateException("cannot start a virtual thread", e);
    }
  }

  /** The OS threads the clients run on, or 0 for one each. */
  public int jobs() {
    return jobs;
  }

  /** For what a run prints after its thread count: "" for OS threads, else ", virtual on N OS threads". */
  public String describe() {
    return jobs == 0 ? "" : ", virtual on " + jobs + " OS thread" + (jobs == 1 ? "" : "s");
  }
}
