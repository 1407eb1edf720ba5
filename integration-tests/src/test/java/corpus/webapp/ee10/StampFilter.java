package corpus.webapp.ee10;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The corpus webapp's filter, on every request: a request attribute and a response header. */
public class StampFilter implements Filter {
  @Override
  public void init(FilterConfig config) {}

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    request.setAttribute("stamp", "stamped");
    ((HttpServletResponse) response).setHeader("X-Corpus-Filter", "stamped");
    chain.doFilter(request, response);
  }

  @Override
  public void destroy() {}
}
