package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterLimitsTest {

  @Test
  void maxArraySizeIsReadFromScontrolsConfiguration() {
    ClusterLimits limits = ClusterLimits.parse("Configuration data as of 2026-11-29T10:00:00\n"
        + "AccountingStorageType   = accounting_storage/slurmdbd\nMaxArraySize            = 50\n"
        + "MaxJobCount             = 10000\n");

    assertThat(limits.maxArraySize()).isEqualTo(50);
    assertThat(limits.arrayElements()).isEqualTo(50);
  }

  @Test
  void aClusterThatDoesNotSayKeepsSlurmsDefaultAndArraysStayAtAThousand() {
    assertThat(ClusterLimits.parse("ClusterName = x\n").maxArraySize()).isEqualTo(1001);
    assertThat(ClusterLimits.parse("MaxArraySize = 100000\n").arrayElements()).isEqualTo(1000);
  }

  @Test
  void maxJobCountAndTheSmallestMaxSubmitJobsOfTheUsersAssociationsAreJobLimits() {
    ClusterLimits config = ClusterLimits.parse("MaxArraySize = 50\nMaxJobCount = 10000\n");

    assertThat(config.maxJobCount()).hasValue(10000);
    assertThat(ClusterLimits.maxSubmitJobs("|\n40|10\n25|\n")).hasValue(25);
    assertThat(ClusterLimits.maxSubmitJobs("|\n|\n")).isEmpty();
    assertThat(ClusterLimits.maxSubmitJobs("")).isEmpty();
  }
}
