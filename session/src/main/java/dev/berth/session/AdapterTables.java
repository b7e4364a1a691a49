package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SettingsTable;
import dev.berth.report.NotifySettings;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.report.SmtpKeys;
import dev.berth.slurm.SlurmKeys;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The adapters a run may use, by the tables of the settings each owns: the local process executor
 * (runtime), mail and the webhook (report), Slurm (slurm) and a user's queue (session). The one list the spec reader, the
 * journal and {@code berth config} are given; its order is the docs' order after core's keys.
 */
public final class AdapterTables {

  /** Every adapter's table. */
  public static final List<SettingsTable<?, ?>> ALL = List.of(LocalKeys.TABLE, SmtpKeys.TABLE, NotifySettings.TABLE,
      SlurmKeys.TABLE, QueueKeys.TABLE);

  private AdapterTables() {}

  /**
   * The environment variables {@code spec}'s settings name as holding secrets ({@code smtp.password-env},
   * {@code notify.url-env}): Berth reads them, and no task inherits them.
   */
  public static Set<String> secretVariables(RunSpec spec) {
    Set<String> names = new TreeSet<>();
    ALL.forEach(table -> names.addAll(table.secretVariables(spec)));
    return names;
  }
}
