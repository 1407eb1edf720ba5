package io.levee.agent.endpoint;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where the local endpoint listens, read from the {@code http} option. A bare port ({@code 9464} or
 * {@code :9464}) means the loopback address: the endpoint shows what the application is doing, so
 * it is reachable from other hosts only when the operator wrote a host that is ({@code
 * 0.0.0.0:9464}, a host name, an interface address); {@link #exposed()} then says so and the
 * endpoint logs a warning. IPv6 hosts are written in brackets ({@code [::1]:9464}). Port 0 takes a
 * free port.
 */
public final class EndpointAddress {
  private final InetSocketAddress socket;
  private final boolean explicitHost;

  private EndpointAddress(InetSocketAddress socket, boolean explicitHost) {
    if (!explicitHost && !socket.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("refusing " + socket + ": no host was written");
    }
    this.socket = socket;
    this.explicitHost = explicitHost;
  }

  /** The loopback address at {@code port}. */
  public static EndpointAddress loopback(int port) {
    return new EndpointAddress(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), checkPort(port)), false);
  }

  /**
   * Reads {@code PORT}, {@code :PORT}, {@code HOST:PORT} or {@code [IPV6]:PORT}.
   *
   * @throws IllegalArgumentException with a message for the log, when it is none of those or the
   *     host is unknown
   */
  public static EndpointAddress parse(String text) {
    String t = text == null ? "" : text.trim();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("http= needs HOST:PORT or PORT");
    }
    int colon = t.lastIndexOf(':');
    String host = colon < 0 ? "" : t.substring(0, colon).trim();
    int port = port(t.substring(colon + 1).trim(), text);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "http=" + text + ": write an IPv6 address in brackets, like [::1]:" + port);
    }
    if (host.isEmpty()) {
      return loopback(port);
    }
    try {
      return new EndpointAddress(new InetSocketAddress(InetAddress.getByName(host), port), true);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("http=" + text + ": unknown host " + host);
    }
  }

  /** {@code requested} with the port the system chose for port 0. */
  static EndpointAddress bound(EndpointAddress requested, int port) {
    return new EndpointAddress(
        new InetSocketAddress(requested.socket.getAddress(), port), requested.explicitHost);
  }

  public InetSocketAddress socket() {
    return socket;
  }

  /**
   * Whether other hosts may reach it: any address but loopback, which only a written host gives.
   */
  public boolean exposed() {
    return !socket.getAddress().isLoopbackAddress();
  }

  public boolean explicitHost() {
    return explicitHost;
  }

  @Override
  public String toString() {
    String host = socket.getAddress().getHostAddress();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + socket.getPort();
  }

  private static int port(String digits, String text) {
    try {
      return checkPort(Integer.parseInt(digits));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "http=" + text + ": the port must be a number from 0 to 65535");
    }
  }

  private static int checkPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is not within 0..65535");
    }
    return port;
  }
}
