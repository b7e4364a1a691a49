package dev.berth.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.TaskRecord;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TaskReportTest {

  @Test
  void matrixValuesComeInTheOrderTheTemplateNamesThemAndStayInItWhenCopied() {
    TaskSpec spec = TaskSpec.builder("mlp-0.01-16-4", "g").command("x").template("mlp-{lr}-{hidden}-{seed}")
        .params(Map.of("seed", "4", "hidden", "16", "lr", "0.01", "zeta", "z")).build();

    TaskReport report = TaskReport.of(new TaskRecord(spec, new TaskHistory(spec.id()), 0, 0), "w");

    assertThat(report.params().keySet()).containsExactly("lr", "hidden", "seed", "zeta");
    assertThat(new TreeMap<>(report.params()).keySet()).containsExactly("lr", "hidden", "seed", "zeta");
  }
}
