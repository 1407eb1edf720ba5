package io.levee.agent.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointAddressTest {
  @Test
  void bindsABarePortToLoopback() {
    for (String text : new String[] {"9464", ":9464", " :9464 "}) {
      EndpointAddress a = EndpointAddress.parse(text);
      assertThat(a.socket().getAddress().isLoopbackAddress()).as(text).isTrue();
      assertThat(a.socket().getPort()).isEqualTo(9464);
      assertThat(a.exposed()).isFalse();
      assertThat(a.explicitHost()).isFalse();
    }
  }

  @Test
  void takesAWrittenHostAsGivenAndSaysWhenItIsExposed() {
    EndpointAddress any = EndpointAddress.parse("0.0.0.0:9464");
    assertThat(any.explicitHost()).isTrue();
    assertThat(any.exposed()).isTrue();
    assertThat(any.toString()).isEqualTo("0.0.0.0:9464");

    assertThat(EndpointAddress.parse("127.0.0.1:9464").exposed()).isFalse();
    assertThat(EndpointAddress.parse("localhost:9464").exposed()).isFalse();
    EndpointAddress v6 = EndpointAddress.parse("[::1]:9464");
    assertThat(v6.exposed()).isFalse();
    assertThat(v6.toString()).isEqualTo("[0:0:0:0:0:0:0:1]:9464");
  }

  @Test
  void rejectsWhatIsNotAnAddress() {
    for (String text : new String[] {"", "host", "host:", ":99999", "::1:9464", "a:b:c", "-1"}) {
      assertThatThrownBy(() -> EndpointAddress.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("http=");
    }
    assertThatThrownBy(() -> EndpointAddress.parse(null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
