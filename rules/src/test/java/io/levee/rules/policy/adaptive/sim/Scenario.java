package io.levee.rules.policy.adaptive.sim;

import java.util.List;

/**
 * A load in phases, against a servlet container ({@link Server}): a CPU-bound page ({@code /cpu})
 * and a latency-bound page ({@code /io}, a little CPU, then a blocking call to a downstream whose
 * latency each phase sets). Open loop (the phases' arrival rates), or closed: a fixed number of
 * clients, each sending its next request as soon as the last is answered.
 *
 * @param retries clients retry a rejected or timed-out call once, after a jittered backoff
 * @param database what {@code /io} waits on instead of the phases' downstream latency; null for
 *     that latency
 * @param clients closed-loop clients of {@code /io}, each sending again {@link
 *     #CLIENT_TURNAROUND_NANOS} after every answer, a refusal included (wrk's connections); 0 for
 *     none
 * @param threads the container's worker threads
 */
public record Scenario(
    String name,
    Server server,
    List<Phase> phases,
    boolean retries,
    Database database,
    int clients,
    int threads) {
  public Scenario(String name, Server server, List<Phase> phases, boolean retries) {
    this(name, server, phases, retries, null, 0, THREADS);
  }

  /**
   * A closed-loop client's time from an answer to its next request: the network and its own turn on
   * a busy machine.
   */
  public static final long CLIENT_TURNAROUND_NANOS = 2_000_000L;

  /** Worker threads of the container (Tomcat's default). */
  public static final int THREADS = 200;

  /** An answer later than this is not goodput. */
  public static final long DEADLINE_NANOS = 250_000_000L;

  /** The client gives up (and, with retries, tries again) after this. */
  public static final long CLIENT_TIMEOUT_NANOS = 2_000_000_000L;

  /**
   * The simulated machine and container.
   *
   * @param cores processors, shared equally by every thread that wants one
   * @param cpuNanos CPU of one {@code /cpu} request
   * @param ioCpuNanos CPU of one {@code /io} request besides its downstream wait
   * @param overheadNanos the container's own CPU per admitted request (parse, write)
   * @param rejectNanos the container's CPU for a rejected request
   * @param offCpuNanos time an admitted request holds its permit with its thread off the CPU
   *     (socket writes, handoffs between the container's threads): no CPU used, none to share
   */
  public record Server(
      String name,
      int cores,
      long cpuNanos,
      long ioCpuNanos,
      long overheadNanos,
      long rejectNanos,
      long offCpuNanos) {
    /** Two cores, a 2 ms page, a container that costs almost nothing. */
    public static final Server TWO_CORES =
        new Server("2 cores", 2, 2_000_000L, 200_000L, 50_000L, 50_000L, 0);

    /**
     * The overload benchmark's Tomcat pinned to one CPU, with the capacity that benchmark
     * calibrated on its 2 ms page (394/s; docs/engineering/overload.md): half a millisecond of the
     * container's CPU per request (a rejected one costs a little less), and a millisecond per
     * request with the thread off the CPU, so that two calls in flight leave the CPU idle part of
     * the time.
     */
    public static final Server ONE_CPU =
        new Server("1 cpu", 1, 2_000_000L, 200_000L, 540_000L, 150_000L, 1_000_000L);

    /** Capacity for {@code /cpu} alone, requests per second. */
    public double c() {
      return cores * 1e9 / (cpuNanos + overheadNanos);
    }
  }

  /**
   * A database behind a connection pool (another process: its CPU is not the server's). Each {@code
   * /io} request waits for one of {@code pool} connections, runs one query of {@code queryNanos} on
   * the database's {@code cores}, shared by the queries running, and keeps the connection {@code
   * holdNanos} more (the rest of the page, with the session open in the view).
   *
   * @param dipEveryNanos the mean time between the database's slow moments, which come at random
   *     (its CPU shared with another process for a while); 0 for none
   * @param dipNanos how long each lasts
   * @param dipSpeed the share of its cores the database keeps during one
   */
  public record Database(
      int pool,
      int cores,
      long queryNanos,
      long holdNanos,
      long dipEveryNanos,
      long dipNanos,
      double dipSpeed) {
    public Database(int pool, int cores, long queryNanos, long holdNanos) {
      this(pool, cores, queryNanos, holdNanos, 0, 0, 1);
    }

    /**
     * HikariCP's default pool of 10 in front of one core of PostgreSQL, 2 ms of it per page, each
     * page keeping its connection 6 ms more: about the petclinic benchmark's shape (C 450-530/s,
     * 6-10 ms unloaded).
     */
    public static final Database POOL_OF_TEN = new Database(10, 1, 2_000_000L, 6_000_000L);

    /**
     * {@link #POOL_OF_TEN} on a database that shares its core with another process now and then (a
     * load generator on the same machine, as in the petclinic benchmark): every 3 s on average it
     * runs at a quarter of its speed for a second, a slow moment in which fewer calls in flight
     * take as long as more took before, which the check of a cut can take for a slower dependency.
     */
    public static final Database POOL_OF_TEN_SHARED =
        new Database(10, 1, 2_000_000L, 6_000_000L, 3_000_000_000L, 1_000_000_000L, 0.25);

    /**
     * A downstream that never queues: each page holds a connection 40 ms however many others do, so
     * its latency stays flat at any load.
     */
    public static final Database NEVER_QUEUES =
        new Database(1_000_000, 1_000_000, 2_000_000L, 38_000_000L);

    /** Capacity, queries (pages) per second, outside its slow moments. */
    public double c() {
      return cores * 1e9 / queryNanos;
    }
  }

  /** A stretch of constant load: arrival rates per page, and the downstream's latency. */
  public record Phase(double seconds, double cpuRate, double ioRate, long downstreamNanos) {
    public static Phase cpu(double seconds, double rate) {
      return new Phase(seconds, rate, 0, 20_000_000L);
    }
  }

  public double totalSeconds() {
    double s = 0;
    for (Phase p : phases) {
      s += p.seconds();
    }
    return s;
  }

  /** Overload step on the CPU-bound page: 0.5C, 2C, 0.5C. */
  public static Scenario step(Server server) {
    double c = server.c();
    return new Scenario(
        "step 0.5C-2C-0.5C, " + server.name(),
        server,
        List.of(Phase.cpu(10, 0.5 * c), Phase.cpu(20, 2 * c), Phase.cpu(10, 0.5 * c)),
        false);
  }

  /**
   * The downstream of {@code /io} slows from 20 to 400 ms while {@code /cpu} keeps 0.3C; {@code
   * ioRate} requests per second of {@code /io} (200 hold 80 threads once it is slow).
   */
  public static Scenario slowDownstream(Server server, double ioRate) {
    double cpu = 0.3 * server.c();
    return new Scenario(
        "slow downstream, /io " + (int) ioRate + "/s, " + server.name(),
        server,
        List.of(
            new Phase(10, cpu, ioRate, 20_000_000L),
            new Phase(20, cpu, ioRate, 400_000_000L),
            new Phase(10, cpu, ioRate, 20_000_000L)),
        false);
  }

  /**
   * A petclinic-like application whose pages wait on the database: {@code /io} alone at 0.5C, 2C,
   * 0.5C, where C is the database's capacity; the server's CPU stays mostly idle.
   */
  public static Scenario poolBound(Server server, Database database) {
    return poolBound(server, database, 2, THREADS);
  }

  /**
   * The same with {@code overload} times C in the middle phase, and a container of {@code threads}
   * worker threads (Tomcat's {@code maxThreads}): the requests beyond them wait in its queue, where
   * no limit sees them.
   */
  public static Scenario poolBound(Server server, Database database, double overload, int threads) {
    double c = database.c();
    String peak = overload == Math.rint(overload) ? Long.toString((long) overload) : "" + overload;
    return new Scenario(
        "database step 0.5C-"
            + peak
            + "C-0.5C, pool "
            + database.pool()
            + ", "
            + (threads == THREADS ? "" : threads + " threads, ")
            + server.name(),
        server,
        ioStep(c, overload),
        false,
        database,
        0,
        threads);
  }

  /** {@code /io} alone at 0.5C for 10 s, {@code overload} times C for 20 s, 0.5C for 10 s. */
  private static List<Phase> ioStep(double c, double overload) {
    return List.of(
        new Phase(10, 0, 0.5 * c, 0),
        new Phase(20, 0, overload * c, 0),
        new Phase(10, 0, 0.5 * c, 0));
  }

  /**
   * Pages that wait on a downstream that never queues ({@link Database#NEVER_QUEUES}), in front of
   * {@code threads} worker threads: 0.5C, {@code overload} times C, 0.5C, where C is what the
   * threads carry. The threads are the narrowest point, and the pages' latency stays flat however
   * long the container's queue grows.
   */
  public static Scenario threadBound(Server server, int threads, double overload) {
    double c = threadsCapacity(threads);
    return new Scenario(
        "thread-bound step 0.5C-" + overload + "C-0.5C, " + threads + " threads, " + server.name(),
        server,
        ioStep(c, overload),
        false,
        Database.NEVER_QUEUES,
        0,
        threads);
  }

  /** What {@code threads} threads carry of {@link #threadBound}'s pages: 40 ms each, and 2 more. */
  public static double threadsCapacity(int threads) {
    return threads / 0.042;
  }

  /**
   * The same application merely busy: {@code clients} closed-loop clients of {@code /io} for 30 s,
   * as wrk's keep-alive connections (each refused request is sent again at once).
   */
  public static Scenario closedLoop(Server server, Database database, int clients) {
    return new Scenario(
        "database closed loop, "
            + clients
            + " clients, pool "
            + database.pool()
            + ", "
            + server.name(),
        server,
        List.of(new Phase(30, 0, 0, 0)),
        false,
        database,
        clients,
        THREADS);
  }

  /** A retry storm: 0.7C, then 3C with clients retrying once, then 0.7C. */
  public static Scenario retryStorm(Server server) {
    double c = server.c();
    return new Scenario(
        "retry storm 3C-0.7C, " + server.name(),
        server,
        List.of(Phase.cpu(10, 0.7 * c), Phase.cpu(20, 3 * c), Phase.cpu(20, 0.7 * c)),
        true);
  }
}
