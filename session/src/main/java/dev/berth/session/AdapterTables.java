package dev.berth.session;

import dev.berth.core.settings.SettingsTable;
import dev.berth.report.NotifySettings;
import dev.berth.report.SmtpKeys;
import dev.berth.slurm.SlurmKeys;
import java.util.List;

/**
 * The adapters a run may use, by the tables of the settings each owns: mail and the webhook (report)
 * and Slurm (slurm). The one list the spec reader, the journal and {@code berth config} are given.
 */
public final class AdapterTables {

  /** Every adapter's table. */
  public static final List<SettingsTable<?, ?>> ALL = List.of(SmtpKeys.TABLE, NotifySettings.TABLE, SlurmKeys.TABLE);

  private AdapterTables() {}
}
