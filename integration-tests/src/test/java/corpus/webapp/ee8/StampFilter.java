package corpus.webapp.ee8;

import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletResponse;

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
