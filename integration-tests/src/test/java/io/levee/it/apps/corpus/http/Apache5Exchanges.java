package io.levee.it.apps.corpus.http;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * Apache HttpClient 5 classic with a pooling connection manager, through {@code execute} and, every
 * other exchange, the {@code HttpClientResponseHandler} form; at the end no connection may be left
 * leased.
 */
public final class Apache5Exchanges extends ClientExchanges {
  private final PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
  private final CloseableHttpClient client =
      HttpClients.custom().setConnectionManager(pool).build();
  private int sent;

  public static void main(String[] args) throws Exception {
    new Apache5Exchanges().run();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws Exception {
    HttpUriRequestBase request = new HttpUriRequestBase(method, URI.create(url));
    if (body != null) {
      request.setEntity(new ByteArrayEntity(body, null));
    }
    if (sent++ % 2 == 0) {
      try (CloseableHttpResponse response = client.execute(request)) {
        return answer(response);
      }
    }
    return client.execute(request, Apache5Exchanges::answer);
  }

  private static Answer answer(ClassicHttpResponse response)
      throws java.io.IOException, org.apache.hc.core5.http.ParseException {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (Header h : response.getHeaders()) {
      map.computeIfAbsent(h.getName(), k -> new ArrayList<>()).add(h.getValue());
    }
    byte[] body =
        response.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(response.getEntity());
    return new Answer(response.getCode(), map, body);
  }

  @Override
  protected void finish() throws Exception {
    System.out.println("leased " + pool.getTotalStats().getLeased());
    client.close();
  }
}
