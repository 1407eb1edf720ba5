package io.levee.it.apps.corpus.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.http.Header;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.util.EntityUtils;

/**
 * Apache HttpClient 4.5 with a pooling connection manager, through {@code execute} and, every other
 * exchange, the {@code ResponseHandler} form; at the end no connection may be left leased.
 */
public final class Apache4Exchanges extends ClientExchanges {
  private final PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
  private final CloseableHttpClient client =
      HttpClients.custom().setConnectionManager(pool).build();
  private int sent;

  public static void main(String[] args) throws Exception {
    new Apache4Exchanges().run();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws Exception {
    RequestBuilder request = RequestBuilder.create(method).setUri(url);
    if (body != null) {
      request.setEntity(new ByteArrayEntity(body));
    }
    if (sent++ % 2 == 0) {
      try (CloseableHttpResponse response = client.execute(request.build())) {
        return new Answer(
            response.getStatusLine().getStatusCode(),
            headers(response.getAllHeaders()),
            response.getEntity() == null
                ? new byte[0]
                : EntityUtils.toByteArray(response.getEntity()));
      }
    }
    return client.execute(
        request.build(),
        response ->
            new Answer(
                response.getStatusLine().getStatusCode(),
                headers(response.getAllHeaders()),
                response.getEntity() == null
                    ? new byte[0]
                    : EntityUtils.toByteArray(response.getEntity())));
  }

  private static Map<String, List<String>> headers(Header[] all) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (Header h : all) {
      map.computeIfAbsent(h.getName(), k -> new java.util.ArrayList<>()).add(h.getValue());
    }
    return map;
  }

  @Override
  protected void finish() throws Exception {
    System.out.println("leased " + pool.getTotalStats().getLeased());
    client.close();
  }
}
