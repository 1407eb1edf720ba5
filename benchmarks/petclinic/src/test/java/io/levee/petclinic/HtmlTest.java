package io.levee.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {
  @Test
  void escapesMarkupInTextAndCells() {
    String page = new Html("A <b> & \"c\"").row("x<y", 3).raw("<p>").text("1 & 2").end();

    assertThat(page)
        .contains("<title>A &lt;b&gt; &amp; &quot;c&quot;</title>")
        .contains("<tr><td>x&lt;y</td><td>3</td></tr>")
        .contains("<p>1 &amp; 2")
        .endsWith("</body></html>\n");
  }
}
