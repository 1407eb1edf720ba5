package io.levee.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentStatusTest {
  // Cut from a real /status answer of the agent attached to the demo application.
  private static final String STATUS =
      "{\"rules\":\"/w/demo/rules.yaml\",\"resources\":[{\"name\":\"orders-api\",\"kind\":\"servlet\","
          + "\"mode\":\"enforce\",\"breaker\":null,\"limit\":null,\"inFlight\":0,\"passed\":90,"
          + "\"blocked\":{\"circuit-open\":0,\"rate-limit\":0},\"calls\":{\"success\":90}},"
          + "{\"name\":\"pricing-partner\",\"kind\":\"http\",\"mode\":\"monitor\","
          + "\"breaker\":\"half-open\",\"limit\":null,\"inFlight\":2,\"passed\":0,\"blocked\":{}},"
          + "{\"name\":\"system\",\"kind\":\"servlet\",\"mode\":\"enforce\",\"breaker\":null,"
          + "\"limit\":40,\"inFlight\":7,\"passed\":90,\"blocked\":{}}]}";

  @Test
  void readsBreakerLimitAndInFlightOfEachResource() {
    Map<String, AgentStatus.Live> live = AgentStatus.parse(STATUS);

    assertThat(live).containsOnlyKeys("orders-api", "pricing-partner", "system");
    assertThat(live.get("orders-api")).isEqualTo(new AgentStatus.Live("enforce", null, null, 0));
    assertThat(live.get("pricing-partner"))
        .isEqualTo(new AgentStatus.Live("monitor", "half-open", null, 2));
    assertThat(live.get("system")).isEqualTo(new AgentStatus.Live("enforce", null, "40", 7));
  }

  @Test
  void readsNothingFromAnAnswerThatIsNotTheStatusTable() {
    assertThat(AgentStatus.parse("<html>not found</html>")).isEmpty();
  }
}
