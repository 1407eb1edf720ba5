package io.levee.it.corpus.containers;

import java.util.List;

/**
 * The requests sent to the {@link CorpusWebapp} on Jetty: a static page, the servlet by GET and
 * POST, with a session and a forward to the JSP, the JSP itself (compiled at its first request),
 * the async servlet both ways, and a missing page.
 */
final class JettyCorpusWebapp {
  private JettyCorpusWebapp() {}

  static final List<Exchange> REQUESTS =
      List.of(
          Exchange.get("/corpus/"),
          Exchange.get("/corpus/greet?name=Ada").with("X-Corpus", "transparency"),
          Exchange.post("/corpus/greet", "name=Grace"),
          Exchange.get("/corpus/greet?name=Alan&session=1"),
          Exchange.get("/corpus/greet?name=Edsger&view=jsp"),
          Exchange.get("/corpus/hello.jsp?name=Linus"),
          Exchange.get("/corpus/later"),
          Exchange.get("/corpus/later?dispatch=1&name=Barbara"),
          Exchange.get("/corpus/no-such-page"));
}
