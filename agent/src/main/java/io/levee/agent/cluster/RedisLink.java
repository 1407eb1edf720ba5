package io.levee.agent.cluster;

import io.levee.rules.model.RedisAddress;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLParameters;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * One connection to the cluster's Redis, through Jedis: opened with the address's TLS, user,
 * password and database, and timeouts short enough that a stalled Redis is noticed within a
 * settling; the settle script loaded once per connection (a restarted Redis has forgotten it, and
 * its connection broke anyway). Only the settling thread uses it. Jedis is reached only through
 * this class, so an agent without cluster-scoped limits never loads it.
 */
final class RedisLink implements Closeable {
  /** One limit's settling: its Redis keys and what this instance tells the cluster. */
  static final class Ask {
    final String keyPrefix;
    final double demand;
    final double rate;

    Ask(String keyPrefix, double demand, double rate) {
      this.keyPrefix = keyPrefix;
      this.demand = demand;
      this.rate = rate;
    }
  }

  /** What the cluster answered one {@link Ask}: this instance's share, the instances counted. */
  static final class Share {
    final double rate;
    final int instances;

    Share(double rate, int instances) {
      this.rate = rate;
      this.instances = instances;
    }
  }

  private final Jedis jedis;
  private final String sha;

  private RedisLink(Jedis jedis, String sha) {
    this.jedis = jedis;
    this.sha = sha;
  }

  /** Connects and loads the script; throws whatever Jedis throws when Redis cannot be had. */
  static RedisLink open(RedisAddress address, int timeoutMillis) {
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .database(address.database)
            .ssl(address.tls)
            .clientName("levee");
    if (address.tls) {
      // The JDK checks a certificate's chain but not whose it is unless asked: without this, any
      // trusted certificate for any host would receive the password.
      SSLParameters tls = new SSLParameters();
      tls.setEndpointIdentificationAlgorithm("HTTPS");
      config.sslParameters(tls);
    }
    if (address.user != null) {
      config.user(address.user);
    }
    if (address.password != null) {
      config.password(address.password);
    }
    Jedis jedis = new Jedis(new HostAndPort(address.host, address.port), config.build());
    try {
      return new RedisLink(jedis, jedis.scriptLoad(SettleScript.LUA));
    } catch (RuntimeException e) {
      jedis.close();
      throw e;
    }
  }

  /**
   * Settles every ask in one round trip (a pipeline of script calls), as {@code instance}, telling
   * Redis to forget instances unseen for {@code livenessMillis} and the keys after {@code
   * expiryMillis}; first takes {@code instance} out of the limits named by {@code forget} (key
   * prefixes), whose keys Redis drops once no instance is left in them.
   */
  List<Share> settle(
      String instance,
      List<Ask> asks,
      List<String> forget,
      long livenessMillis,
      long expiryMillis) {
    Pipeline pipeline = jedis.pipelined();
    for (String prefix : forget) {
      pipeline.zrem(prefix + ":seen", instance);
      pipeline.hdel(prefix + ":demand", instance);
    }
    List<Response<Object>> responses = new ArrayList<Response<Object>>(asks.size());
    String liveness = Long.toString(livenessMillis);
    String expiry = Long.toString(expiryMillis);
    for (Ask ask : asks) {
      responses.add(
          pipeline.evalsha(
              sha,
              Arrays.asList(ask.keyPrefix + ":seen", ask.keyPrefix + ":demand"),
              Arrays.asList(instance, number(ask.demand), number(ask.rate), liveness, expiry)));
    }
    pipeline.sync();
    List<Share> shares = new ArrayList<Share>(responses.size());
    for (Response<Object> response : responses) {
      List<?> reply = (List<?>) response.get();
      shares.add(
          new Share(
              Double.parseDouble(text(reply.get(0))), (int) ((Long) reply.get(1)).longValue()));
    }
    return shares;
  }

  @Override
  public void close() {
    try {
      jedis.close();
    } catch (RuntimeException e) {
      // A connection that broke is closed all the same.
    }
  }

  /** Every digit of the value: a rate of one call an hour is 0.000277…, not 0.000. */
  private static String number(double value) {
    return Double.toString(value);
  }

  private static String text(Object reply) {
    return reply instanceof byte[]
        ? new String((byte[]) reply, java.nio.charset.StandardCharsets.UTF_8)
        : String.valueOf(reply);
  }
}
