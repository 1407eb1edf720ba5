package io.levee.bootstrap.fakeservlet.http;

public interface HttpServletResponse {
  int getStatus();
}
