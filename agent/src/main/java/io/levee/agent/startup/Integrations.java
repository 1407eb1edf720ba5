package io.levee.agent.startup;

import io.levee.agent.http.HttpUrlConnectionIntegration;
import io.levee.agent.instrument.Integration;
import io.levee.agent.log.AgentLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Every integration the agent installs. All but the HttpURLConnection one are looked up by name, so
 * that a build without one of them (or one whose classes fail to load) still protects the rest.
 */
final class Integrations {
  private static final String[] BY_NAME = {
    "io.levee.agent.servlet.ServletIntegration",
    "io.levee.agent.jdbc.JdbcIntegration",
    "io.levee.agent.apache4.Apache4Integration",
    "io.levee.agent.apache5.Apache5Integration",
    "io.levee.agent.okhttp.OkHttpIntegration",
    "io.levee.agent.jdkhttp.JdkHttpIntegration",
    "io.levee.agent.apache5async.ApacheAsyncIntegration"
  };

  private Integrations() {}

  static List<Integration> all(AgentLog log) {
    List<Integration> all = new ArrayList<Integration>();
    all.add(new HttpUrlConnectionIntegration());
    for (String name : BY_NAME) {
      try {
        all.add((Integration) Class.forName(name).getDeclaredConstructor().newInstance());
      } catch (ClassNotFoundException e) {
        log.debug("integration " + name + " is not in this build");
      } catch (Throwable t) {
        log.warn("integration " + name + " left out", t);
      }
    }
    return all;
  }
}
