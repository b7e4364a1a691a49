package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskPatternTest {

  @ParameterizedTest(name = "''{0}'' matches ''{1}'': {2}")
  @CsvSource({
      "train-*, train-1, true",
      "train-*, train-, true",
      "train-*, train-0.1-seed-2, true",
      "train-*, pretrain-1, false",
      "train-*, Train-1, false",
      "*, anything, true",
      "*-2, lr-0.1-2, true",
      "*-2, lr-0.1-20, false",
      "t?, t1, true",
      "t?, t, false",
      "t?, t12, false",
      "t??, t12, true",
      "t[12], t1, true",
      "t[12], t2, true",
      "t[12], t3, false",
      "t[12], t12, false",
      "t[a-c], tb, true",
      "t[a-c], td, false",
      "t[+=], t+, true",
      "t[+=], t=, true",
      "t[.], t., true",
      "t[.], tx, false",
      "a.b, a.b, true",
      "a.b, axb, false",
      "a+b, a+b, true",
      "a+b, aab, false",
      "lr=0.1, lr=0.1, true",
      "'x@y,z', 'x@y,z', true",
      "t[, t[, true",
      "t[], t[], true",
      "t[x, t[x, true",
      "t[x, tx, false",
      "plain, plain, true",
      "plain, plainer, false",
      "plain, xplain, false"
  })
  void globsMatchWholeIds(String glob, String id, boolean matches) {
    assertThat(TaskPattern.of(glob).matches(id)).isEqualTo(matches);
  }

  @ParameterizedTest(name = "''{0}'' is a glob: {1}")
  @CsvSource({
      "train-*, true",
      "t?, true",
      "t[12], true",
      "t[, true",
      "plain-id, false",
      "lr=0.1, false",
      "group:train, false"
  })
  void isGlobSaysWhetherThereIsAnyGlobCharacter(String text, boolean glob) {
    assertThat(TaskPattern.isGlob(text)).isEqualTo(glob);
  }

  @org.junit.jupiter.api.Test
  void toStringIsThePatternAsWritten() {
    assertThat(TaskPattern.of("train-[12]*")).hasToString("train-[12]*");
  }
}
