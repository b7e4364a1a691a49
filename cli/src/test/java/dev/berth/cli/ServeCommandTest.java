package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void aBusyPortIsNamedAndTheRunningServersTokenFileIsLeftAlone(@TempDir Path dir) throws Exception {
    Path tokenFile = Files.writeString(dir.resolve("serve-token"), "the-running-servers-token\n");
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = busy.getLocalPort();
      CliRunner r = CliRunner.berth("serve", "--port", Integer.toString(port), "--token-file", tokenFile.toString());
      assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(r.err).isEqualTo("berth: serve: cannot listen on 127.0.0.1:" + port + ": port " + port
          + " is busy (another berth serve?; --port 0 takes any free one)\n");
      assertThat(r.out).isEmpty();
    }
    assertThat(Files.readString(tokenFile)).isEqualTo("the-running-servers-token\n");
  }

  @Test
  void servingARunNeedsTheHostLedger() {
    CliRunner r = CliRunner.berth("run", "--serve", "--host-ledger", "off", "examples/none.yaml");
    assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(r.err).isEqualTo("berth: --serve: needs the host ledger (drop --host-ledger off)\n");
  }
}
