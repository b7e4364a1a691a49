package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The spec a warm-up reads is one Berth accepts, so a warm-up runs the whole reader. */
class SpecLoaderPrepareTest {

  @Test
  void theWarmUpSpecIsReadWithoutAProblem() {
    assertThatCode(() -> SpecLoader.prepare(List.of())).doesNotThrowAnyException();
  }
}
