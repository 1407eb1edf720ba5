package io.levee.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.SocketFactory;

/**
 * A real {@code redis-server} of one test's own, which the test may stop, restart on the same port
 * or kill: forked from {@code $LEVEE_REDIS_SERVER} (else {@code redis-server} on the {@code PATH}),
 * listening on a free loopback port, keeping nothing on disk ({@code --save "" --appendonly no}),
 * working in a temporary folder that {@link #close} deletes. Optionally it asks for a password
 * ({@code requirepass}), knows one ACL user instead of the default one, or speaks TLS only, with
 * certificates made for the run ({@link LoopbackCertificates}). {@link #command} looks into it over
 * a {@link RespConnection}.
 *
 * <p>Driven by the thread that started it. The process is killed if this JVM exits first.
 */
public final class RedisServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);

  private final Path binary;
  private final Path dir;
  private final String password;
  private final String user;
  private final String userPassword;
  private final LoopbackCertificates tls;

  /** Whether its certificate names the loopback address this JVM dials, so is checked. */
  private final boolean namesLoopback;

  private int port;
  private JvmProcess process;

  private RedisServer(Builder b, Path dir, LoopbackCertificates tls) {
    this.binary = b.binary;
    this.dir = dir;
    this.password = b.password;
    this.user = b.user;
    this.userPassword = b.userPassword;
    this.tls = tls;
    this.namesLoopback = b.certificateNames.contains("IP:127.0.0.1");
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code $LEVEE_REDIS_SERVER} when set, else {@code redis-server} on the {@code PATH}. */
  public static Optional<Path> binary() {
    String env = System.getenv("LEVEE_REDIS_SERVER");
    if (env != null && !env.isBlank()) {
      Path path = Path.of(env);
      return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String folder : path.split(File.pathSeparator)) {
      Path candidate = Path.of(folder, "redis-server");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Starts it again after {@link #stop} or {@link #kill}, on the same port, with the same data. */
  public void start() throws IOException {
    if (isRunning()) {
      throw new IllegalStateException("redis-server already runs on port " + port);
    }
    launch();
  }

  /**
   * Shuts it down as an operator would ({@code SHUTDOWN NOSAVE}); SIGTERM, then kill, if it hangs.
   */
  public void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    try (RespConnection c = connect()) {
      c.call("SHUTDOWN", "NOSAVE");
    } catch (IOException e) {
      // The server closes the connection instead of answering: that is the normal way.
    }
    try {
      if (!process.waitFor(STOP_TIMEOUT)) {
        process.stop(STOP_TIMEOUT);
      }
    } catch (InterruptedException e) {
      process.kill();
      Thread.currentThread().interrupt();
    }
  }

  /** {@link #stop}, then {@link #start} on the same port. */
  public void restart() throws IOException {
    stop();
    start();
  }

  /** SIGKILL: the server vanishes without closing its connections cleanly. */
  public void kill() {
    if (process == null) {
      return;
    }
    process.kill();
    try {
      process.waitFor(STOP_TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return port;
  }

  /**
   * {@code redis://} or, with TLS, {@code rediss://} to database 0, carrying the user and password
   * when there are any ({@code redis://:PASSWORD@…} for a password alone).
   */
  public String url() {
    String credentials = "";
    if (user != null) {
      credentials = encode(user) + ":" + encode(userPassword) + "@";
    } else if (password != null) {
      credentials = ":" + encode(password) + "@";
    }
    return (tls != null ? "rediss://" : "redis://") + credentials + host() + ":" + port + "/0";
  }

  /**
   * The certificates of a TLS server ({@link LoopbackCertificates#jvmOptions} for a forked JVM).
   */
  public Optional<LoopbackCertificates> tls() {
    return Optional.ofNullable(tls);
  }

  /** A new connection, over TLS when it speaks TLS, authenticated when it asks for it. */
  public RespConnection connect() throws IOException {
    SocketFactory sockets =
        tls != null ? tls.socketFactory(namesLoopback) : SocketFactory.getDefault();
    RespConnection c = RespConnection.open(sockets, host(), port, REPLY_TIMEOUT);
    try {
      if (user != null) {
        c.call("AUTH", user, userPassword);
      } else if (password != null) {
        c.call("AUTH", password);
      }
      return c;
    } catch (IOException e) {
      c.close();
      throw e;
    }
  }

  /** Runs one command on a connection of its own: {@code command("KEYS", "levee*")}. */
  public Object command(String... args) throws IOException {
    try (RespConnection c = connect()) {
      return c.call(args);
    }
  }

  /** The keys {@code KEYS pattern} names, in the server's order. */
  @SuppressWarnings("unchecked")
  public List<String> keys(String pattern) throws IOException {
    return (List<String>) command("KEYS", pattern);
  }

  public long dbSize() throws IOException {
    return (Long) command("DBSIZE");
  }

  /** {@code INFO section}, e.g. {@code memory}: lines of {@code field:value}. */
  public String info(String section) throws IOException {
    return (String) command("INFO", section);
  }

  /** What the server has logged so far, over all its starts. */
  public String log() {
    try {
      Path log = dir.resolve("server.log");
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kills the server and deletes its folder. */
  @Override
  public void close() {
    kill();
    deleteTree(dir);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temporary folder left behind is no failure of the test.
    }
  }

  private void launch() throws IOException {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of("--bind", host(), "--save", "", "--appendonly", "no"));
    command.addAll(List.of("--dir", dir.toString(), "--daemonize", "no", "--logfile", ""));
    if (tls != null) {
      command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port)));
      command.addAll(List.of("--tls-cert-file", tls.serverCertificate().toString()));
      command.addAll(List.of("--tls-key-file", tls.serverKey().toString()));
      command.addAll(List.of("--tls-ca-cert-file", tls.caCertificate().toString()));
      command.addAll(List.of("--tls-auth-clients", "no"));
    } else {
      command.addAll(List.of("--port", Integer.toString(port)));
    }
    if (password != null) {
      command.addAll(List.of("--requirepass", password));
    }
    if (user != null) {
      // Each ACL rule is an argument of its own: redis-server quotes an argument holding spaces.
      command.addAll(List.of("--user", user, "on", ">" + userPassword, "~*", "&*", "+@all"));
      if (password == null) {
        command.addAll(List.of("--user", "default", "off"));
      }
    }
    process =
        JvmProcess.command(command)
            .appendOutput(dir.resolve("server.log"))
            .noInput()
            .killOnExit()
            .start();
    awaitReady();
  }

  /**
   * Waits until it answers PING, and checks that the answer comes from this process: on a port
   * another server took in between, ours exits and the other one would answer.
   */
  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    IOException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server on port " + port + " exited:\n" + log());
      }
      try (RespConnection c = connect()) {
        if ("PONG".equals(c.call("PING"))
            && ((String) c.call("INFO", "server")).contains("process_id:" + process.pid() + "\r")) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while redis-server started", e);
      }
    }
    process.kill();
    throw new IOException(
        "redis-server on port " + port + " did not answer PING within " + READY_TIMEOUT, last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** What server to start: plain by default; {@link #start} starts it. */
  public static final class Builder {
    private Path binary;
    private String password;
    private String user;
    private String userPassword;
    private boolean tls;
    private String certificateNames = "IP:127.0.0.1,DNS:localhost";

    private Builder() {}

    /** The {@code redis-server} to run, instead of {@link RedisServer#binary()}. */
    public Builder binary(Path path) {
      this.binary = path;
      return this;
    }

    /** {@code requirepass}: the default user needs this password. */
    public Builder password(String value) {
      this.password = value;
      return this;
    }

    /**
     * An ACL user with every right; the default user is switched off unless {@link #password} is
     * also given.
     */
    public Builder user(String name, String value) {
      this.user = name;
      this.userPassword = value;
      return this;
    }

    /**
     * TLS only ({@code --port 0}), with certificates made for it; clients need none of their own.
     */
    public Builder tls() {
      this.tls = true;
      return this;
    }

    /** TLS with a certificate for these names only ({@code DNS:elsewhere.invalid}), not its own. */
    public Builder tls(String subjectAltNames) {
      this.tls = true;
      this.certificateNames = subjectAltNames;
      return this;
    }

    /**
     * Starts it on a free loopback port and returns once it answers PING; a port taken between
     * choosing and binding is replaced by another one.
     */
    public RedisServer start() throws IOException {
      if (binary == null) {
        binary =
            RedisServer.binary()
                .orElseThrow(
                    () ->
                        new IOException(
                            "no redis-server: set LEVEE_REDIS_SERVER or apt-get install"
                                + " redis-server"));
      }
      Path dir = Files.createTempDirectory("levee-redis-");
      RedisServer server = null;
      try {
        server =
            new RedisServer(
                this,
                dir,
                tls ? LoopbackCertificates.create(dir.resolve("tls"), certificateNames) : null);
        for (int attempt = 1; ; attempt++) {
          server.port = freePort();
          try {
            server.launch();
            return server;
          } catch (IOException e) {
            server.kill();
            if (attempt == 3) {
              throw e;
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        if (server != null) {
          server.kill();
        }
        deleteTree(dir);
        throw e;
      }
    }
  }
}
