package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class ReportWarmUpTest {

  @Test
  void theMadeUpRunIsAReportEveryWriterTakes() {
    assertThatCode(ReportWarmUp::writeSample).doesNotThrowAnyException();
  }
}
