package io.levee.it.apps.corpus.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;

/**
 * Apache HttpClient 5's async client with a pooling connection manager, {@code execute} of a {@code
 * SimpleHttpRequest} waited for; at the end no connection may be left leased. It does not follow
 * the redirect itself (the async client's default), nor unzip the body: the application sees what
 * the partner sent.
 */
public final class Apache5AsyncExchanges extends ClientExchanges {
  private final PoolingAsyncClientConnectionManager pool =
      new PoolingAsyncClientConnectionManager();
  private final CloseableHttpAsyncClient client =
      HttpAsyncClients.custom().setConnectionManager(pool).build();

  public static void main(String[] args) throws Exception {
    new Apache5AsyncExchanges().run();
  }

  private Apache5AsyncExchanges() {
    client.start();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws Exception {
    SimpleRequestBuilder request = SimpleRequestBuilder.create(method).setUri(url);
    if (body != null) {
      request.setBody(body, ContentType.TEXT_PLAIN);
    }
    SimpleHttpResponse response;
    try {
      response = client.execute(request.build(), null).get();
    } catch (ExecutionException e) {
      throw (Exception) e.getCause();
    }
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (Header h : response.getHeaders()) {
      map.computeIfAbsent(h.getName(), k -> new ArrayList<>()).add(h.getValue());
    }
    byte[] bytes = response.getBodyBytes();
    return new Answer(response.getCode(), map, bytes == null ? new byte[0] : bytes);
  }

  @Override
  protected void finish() throws Exception {
    // The I/O reactor hands a connection back after it completed the exchange's future: give it
    // the moment it needs, as a leak would still show after it.
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (pool.getTotalStats().getLeased() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    System.out.println("leased " + pool.getTotalStats().getLeased());
    client.close();
  }
}
