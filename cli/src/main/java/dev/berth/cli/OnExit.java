package dev.berth.cli;

import dev.berth.spi.JobsOnExit;
import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What Ctrl-C does to the jobs a run submitted to a cluster ({@code slurm.on-exit}, or
 * {@code --on-exit}): cancel them, leave them running so that {@code berth resume} finds them again,
 * or ask. Jobs on a cluster outlive Berth, so unlike local processes, leaving them is a real choice.
 */
final class OnExit {

  /** How long the question waits for an answer before the jobs are cancelled. */
  private static final long ANSWER_SECONDS = 30;

  private OnExit() {}

  /**
   * Whether to leave the jobs running: {@code leave} says yes, {@code cancel} no, and {@code ask}
   * asks on the terminal (cancelling when there is none, or no answer within 30 seconds).
   */
  static boolean leaveJobs(JobsOnExit setting, PrintStream out) {
    if (setting == JobsOnExit.LEAVE) {
      return true;
    }
    Console console = System.console();
    if (setting != JobsOnExit.ASK || console == null) {
      return false;
    }
    out.println();
    out.print("berth: cancel the submitted Slurm jobs? [Y/n] (n leaves them running for berth resume) ");
    out.flush();
    CompletableFuture<String> answer = new CompletableFuture<>();
    Thread reader = new Thread(() -> answer.complete(console.readLine()), "berth-on-exit");
    reader.setDaemon(true);
    reader.start();
    try {
      String text = answer.get(ANSWER_SECONDS, TimeUnit.SECONDS);
      return text != null && text.strip().toLowerCase(Locale.ROOT).startsWith("n");
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
