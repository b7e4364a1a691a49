package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Bad options of {@code berth serve} and {@code berth run --serve}: one line, exit code 2, nothing served. */
class ServeCommandTest {

  @Test
  void anAddressThatIsNotOneIsBadInput() {
    CliRunner r = CliRunner.berth("serve", "--bind", "no such host.invalid");
    assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err).isEqualTo("berth: serve: --bind: not an address of this host: no such host.invalid\n");
  }

  @Test
  void aPortOutOfRangeIsBadInput() {
    CliRunner r = CliRunner.berth("serve", "--port", "70000");
    assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err).isEqualTo("berth: serve: --port: must be 0 to 65535, not 70000\n");
  }

  @Test
  void servingARunNeedsTheHostLedger() {
    CliRunner r = CliRunner.berth("run", "--serve", "--host-ledger", "off", "examples/none.yaml");
    assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err).isEqualTo("berth: --serve: needs the host ledger (drop --host-ledger off)\n");
  }
}
