package io.levee.it.http;

import java.util.List;

/** Apache HttpClient 4.5: {@code execute} returning the response, and the handler forms. */
class Apache4IT extends ApacheContract {
  @Override
  protected String client() {
    return "hc4";
  }

  @Override
  protected List<String> forms() {
    return List.of("plain", "handler");
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
