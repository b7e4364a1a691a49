#!/usr/bin/env bash
# Soak test of resume: kills the scheduler with SIGKILL at random moments of a run, resumes it,
# and checks that every task ends, no succeeded task ran twice and no result is lost.
# CI runs 20 trials; this runs BERTH_FAULTS (default 200).
#   usage: scripts/soak-resume.sh            # 200 trials, about 8 minutes on 2 cores
#          BERTH_FAULTS=1000 scripts/soak-resume.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -q -B -Dmaven.test.skip=true install
mvn -B -pl cli test -Dsurefire.failIfNoSpecifiedTests=false -Dtest=ResumeFaultInjectionTest \
  -Dberth.faults="${BERTH_FAULTS:-200}"
