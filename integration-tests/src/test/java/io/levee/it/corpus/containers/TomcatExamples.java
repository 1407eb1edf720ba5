package io.levee.it.corpus.containers;

import java.util.List;

/**
 * The requests sent to Tomcat's bundled {@code examples} webapp: its servlets, the filters the test
 * maps, JSPs that Jasper compiles at their first request (with the JDK's compiler, reading JDK
 * classes), tag files and the JSTL, async servlets, an error page, and the WebSocket echo.
 */
final class TomcatExamples {
  private TomcatExamples() {}

  static final List<Exchange> REQUESTS =
      List.of(
          Exchange.get("/examples/"),
          Exchange.get("/examples/servlets/servlet/HelloWorldExample"),
          Exchange.get("/examples/servlets/servlet/RequestInfoExample/extra?x=1"),
          Exchange.get("/examples/servlets/servlet/RequestHeaderExample")
              .with("X-Corpus", "transparency"),
          Exchange.get(
              "/examples/servlets/servlet/RequestParamExample?firstname=Ada&lastname=Lovelace"),
          Exchange.post(
              "/examples/servlets/servlet/RequestParamExample", "firstname=Grace&lastname=Hopper"),
          Exchange.get(
              "/examples/servlets/servlet/CookieExample?cookiename=flavour&cookievalue=oat"),
          Exchange.get("/examples/servlets/servlet/SessionExample?dataname=colour&datavalue=blue"),
          Exchange.get("/examples/CompressionTest").with("Accept-Encoding", "gzip"),
          Exchange.get("/examples/jsp/jsp2/el/basic-arithmetic.jsp"),
          Exchange.get("/examples/jsp/jsp2/el/implicit-objects.jsp?foo=bar"),
          Exchange.get("/examples/jsp/jsp2/simpletag/hello.jsp"),
          Exchange.get("/examples/jsp/jsp2/tagfiles/products.jsp"),
          Exchange.get("/examples/jsp/tagplugin/foreach.jsp"),
          Exchange.get("/examples/jsp/snp/snoop.jsp"),
          Exchange.get("/examples/jsp/include/include.jsp"),
          Exchange.get("/examples/jsp/jsptoserv/jsptoservlet.jsp"),
          Exchange.get("/examples/jsp/error/err.jsp?name=integra&submit=Submit"),
          Exchange.get("/examples/async/async0"),
          Exchange.get("/examples/async/async3"),
          Exchange.get("/examples/no-such-page"),
          Exchange.websocket("/examples/websocket/echoAnnotation", "levee transparency corpus"));
}
