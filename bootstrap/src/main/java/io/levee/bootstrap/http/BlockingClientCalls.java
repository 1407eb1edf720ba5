package io.levee.bootstrap.http;

/**
 * What {@link BlockingClients} needs done with a blocking client's own types: a client whose woven
 * method takes a target and a request and returns the response once its headers arrived (Apache
 * HttpClient 4 and 5 classic). Implemented by the agent beside each loader's copy of the client, so
 * only {@code Object}, {@code String} and {@code int} cross the bridge.
 */
public interface BlockingClientCalls {
  /** The request's method. */
  String method(Object request);

  /**
   * The full URL the request goes to, as {@code scheme://host[:port]/path?query}; null when it
   * cannot be told (the call then runs untracked).
   */
  String url(Object target, Object request);

  /** The status of a response the client returned. */
  int status(Object response);

  /** The response's headers as name, value, name, value... */
  String[] headers(Object response);

  /** A response of the client's own type carrying {@code answer}, or null if none can be made. */
  Object fallback(HttpAnswer answer);

  /**
   * {@code config}, the client's request configuration, with the timeouts it leaves unset taken
   * from the arguments (0: leave that one alone); {@code config} itself when nothing changes.
   */
  Object withTimeouts(Object config, int connectMillis, int readMillis);

  /** Tees the body of {@code response} into {@code tee} as the application reads it. */
  void teeBody(Object response, BodyTee tee);

  /** For a class without calls: every call runs untracked. */
  BlockingClientCalls NONE =
      new BlockingClientCalls() {
        @Override
        public String method(Object request) {
          return null;
        }

        @Override
        public String url(Object target, Object request) {
          return null;
        }

        @Override
        public int status(Object response) {
          return -1;
        }

        @Override
        public String[] headers(Object response) {
          return new String[0];
        }

        @Override
        public Object fallback(HttpAnswer answer) {
          return null;
        }

        @Override
        public Object withTimeouts(Object config, int connectMillis, int readMillis) {
          return config;
        }

        @Override
        public void teeBody(Object response, BodyTee tee) {}
      };
}
