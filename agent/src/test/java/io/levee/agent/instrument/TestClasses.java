package io.levee.agent.instrument;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.self;

import java.io.IOException;
import java.io.InputStream;

/** What the weaver's tests weave: the test classes' own class files, with a recording hook. */
final class TestClasses {
  private TestClasses() {}

  /** The class file of a class of the tests, by internal name. */
  static byte[] classFile(String internalName) throws IOException {
    try (InputStream in =
        TestClasses.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  /**
   * Weaves {@code method} of the classes that implement {@code api}, calling {@link
   * WeaverTest.Recorder}.
   */
  static Transformations recording(String api, String method) {
    Advice advice =
        Advice.in(WeaverTest.Recorder.class.getName())
            .enter("enter", self("java.lang.Object"), arg(0))
            .skip(Advice.Skip.IF_NON_NULL)
            .exit("exit", "thrown", arg(0));
    return new Transformations()
        .add(TypeRule.implementing(api).methods(MethodRule.named(method).weave(advice)));
  }
}
