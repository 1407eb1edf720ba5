package io.levee.agent.cluster;

/**
 * The Lua script that settles one cluster-scoped limit in Redis, atomically: it records this
 * instance as alive (a sorted set of instance to the time it is alive until, by Redis's own clock,
 * never an instance's) with its demand (a hash), forgets instances past their time, and answers
 * this instance's share of the rate and the number of instances. Each instance says how long it
 * stays alive unheard (its own liveness): instances settling at different {@code sync}, as during a
 * rolling change of it, count each other right.
 *
 * <p>The split: each instance asks for its demand plus a tenth, plus a floor of {@code rate /
 * (50·n)} so that an idle instance is never left with nothing. When the asks fit in the rate, each
 * gets its ask and an equal part of what is left; otherwise max-min fair ("water-filling"): a level
 * {@code L} such that the asks, each capped at {@code L}, add up to the rate, and each gets {@code
 * min(ask, L)}. Either way the shares add up to the rate, so the instances together admit the rate,
 * and an instance whose demand is at most {@code rate/n} gets all of it: none is starved while
 * others hold the budget. Every instance computes from the same hash, so shares of instances
 * settling at different instants differ only by what demand moved in between.
 *
 * <p>{@code KEYS[1]}: the set of instances; {@code KEYS[2]}: their demands; both in one hash slot
 * (the braces of their names). {@code ARGV}: instance, demand (calls/s), rate (calls/s), liveness
 * (ms), expiry of both keys (ms).
 */
final class SettleScript {
  static final String LUA =
      String.join(
          "\n",
          "if redis.replicate_commands then redis.replicate_commands() end",
          "local t = redis.call('TIME')",
          "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)",
          "local id = ARGV[1]",
          "local rate = tonumber(ARGV[3])",
          "redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), id)",
          "redis.call('HSET', KEYS[2], id, ARGV[2])",
          "local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. now)",
          "for i = 1, #dead do",
          "  redis.call('ZREM', KEYS[1], dead[i])",
          "  redis.call('HDEL', KEYS[2], dead[i])",
          "end",
          "redis.call('PEXPIRE', KEYS[1], ARGV[5])",
          "redis.call('PEXPIRE', KEYS[2], ARGV[5])",
          "local all = redis.call('HGETALL', KEYS[2])",
          "local n = #all / 2",
          "local floor = rate / (50 * n)",
          "local asks = {}",
          "local mine = floor",
          "local total = 0",
          "for i = 1, #all, 2 do",
          "  local ask = (tonumber(all[i + 1]) or 0) * 1.1 + floor",
          "  asks[#asks + 1] = ask",
          "  total = total + ask",
          "  if all[i] == id then mine = ask end",
          "end",
          "local share",
          "if total <= rate then",
          "  share = mine + (rate - total) / n",
          "else",
          "  table.sort(asks)",
          "  local left = rate",
          "  local level = rate / n",
          "  for i = 1, n do",
          "    local rest = n - i + 1",
          "    if asks[i] * rest >= left then",
          "      level = left / rest",
          "      break",
          "    end",
          "    left = left - asks[i]",
          "  end",
          "  share = math.min(mine, level)",
          "end",
          "return {string.format('%.17g', share), n}");

  private SettleScript() {}
}
