package io.levee.it.http;

import java.util.List;

/** Apache HttpClient 5 classic: {@code execute}, the handler forms and {@code executeOpen}. */
class Apache5IT extends ApacheContract {
  @Override
  protected String client() {
    return "hc5";
  }

  @Override
  protected List<String> forms() {
    return List.of("plain", "handler", "open");
  }

  @Override
  protected String blockedException() {
    return "java.io.IOException";
  }

  @Override
  protected String responseType() {
    return "CloseableHttpResponse";
  }
}
