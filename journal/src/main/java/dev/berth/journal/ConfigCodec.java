package dev.berth.journal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SlurmConfig;
import dev.berth.core.model.SmtpConfig;
import dev.berth.core.settings.Parsers;

/**
 * {@link SchedulerConfig} to and from JSON in the shape of a config file: sections
 * {@code scheduler}, {@code utilization-limit}, {@code remain-limit} and {@code smtp} with the same
 * key names. Memory is in bytes, durations are ISO-8601 ({@code PT1S}), fractions are numbers.
 *
 * <p>The SMTP password is never written, so that no journal holds a secret; it decodes as empty
 * and a resumed run takes it from the configuration at hand (or from {@code smtp.password-env}).
 */
final class ConfigCodec {

  private ConfigCodec() {}

  static ObjectNode toJson(SchedulerConfig c) {
    ObjectNode scheduler = CanonicalJson.object();
    scheduler.put("max-process", c.maxProcess());
    scheduler.put("max-waiting", c.maxWaiting());
    scheduler.put("interval", c.interval().toString());
    scheduler.put("default-memory", c.defaultMemoryBytes());
    scheduler.put("cores", c.cores());
    scheduler.put("load-nretry", c.loadNretry());
    scheduler.put("train-nretry", c.trainNretry());
    scheduler.put("default-cuda-memory", c.defaultCudaMemoryBytes());
    scheduler.put("placement", c.placement().label());
    scheduler.put("max-per-device", c.maxPerDevice());
    scheduler.put("put-interval", c.putInterval().toString());
    scheduler.put("available-interval", c.availableInterval().toString());
    scheduler.put("seed", c.seed());
    scheduler.put("oom-growth", c.oomGrowth());
    scheduler.put("learn-usage", c.learnUsage().label());
    scheduler.put("executor", c.executor().label());
    ObjectNode utilization = CanonicalJson.object();
    utilization.put("cpu", c.cpuUtilizationLimit());
    utilization.put("memory", c.memoryUtilizationLimit());
    utilization.put("cuda-memory", c.cudaMemoryUtilizationLimit());
    ObjectNode remain = CanonicalJson.object();
    remain.put("memory", c.remainMemoryBytes());
    remain.put("cuda-memory", c.remainCudaMemoryBytes());
    ObjectNode config = CanonicalJson.object();
    config.set("scheduler", scheduler);
    config.set("utilization-limit", utilization);
    config.set("remain-limit", remain);
    config.set("smtp", smtp(c.smtp()));
    config.set("slurm", slurm(c.slurm()));
    return config;
  }

  private static ObjectNode slurm(SlurmConfig m) {
    ObjectNode f = CanonicalJson.object();
    f.put("mode", m.mode());
    f.put("partition", m.partition());
    f.put("account", m.account());
    f.put("qos", m.qos());
    f.put("time", m.time().toString());
    f.set("extra-args", CanonicalJson.strings(m.extraArgs()));
    f.put("workdir-root", m.workdirRoot());
    f.put("gpu-memory-gres", m.gpuMemoryGres());
    f.put("arrays", m.arrays());
    f.put("max-jobs", m.maxJobs());
    f.put("gres", m.gres());
    f.put("cpus", m.cpus());
    f.put("memory", m.memoryBytes());
    f.put("max-allocations", m.maxAllocations());
    f.put("on-exit", m.onExit());
    f.put("poll-max", m.pollMax().toString());
    return f;
  }

  private static SlurmConfig slurm(Fields f) {
    SlurmConfig m = new SlurmConfig(f.string("mode"), f.string("partition"), f.string("account"), f.string("qos"),
        f.duration("time"), f.strings("extra-args"), f.string("workdir-root"), f.string("gpu-memory-gres"),
        f.bool("arrays"),
        f.ifGiven("max-jobs", f::intValue).orElse(SlurmConfig.DEFAULTS.maxJobs()), f.string("gres"), f.intValue("cpus"), f.longValue("memory"), f.intValue("max-allocations"),
        f.string("on-exit"), f.duration("poll-max"));
    f.done();
    return m;
  }

  private static ObjectNode smtp(SmtpConfig m) {
    ObjectNode f = CanonicalJson.object();
    f.put("enable", m.enable());
    f.put("server-host", m.serverHost());
    f.put("server-port", m.serverPort());
    f.put("user", m.user());
    f.put("password-env", m.passwordEnv());
    f.set("receiver", CanonicalJson.strings(m.receivers()));
    f.put("tls", m.tls());
    f.put("starttls", m.starttls());
    f.put("min-interval", m.minInterval().toString());
    f.put("max-numbers", m.maxNumbers());
    f.put("send", m.send());
    return f;
  }

  private static SmtpConfig smtp(Fields f) {
    SmtpConfig m = new SmtpConfig(
        f.bool("enable"), f.string("server-host"), f.intValue("server-port"), f.string("user"), "",
        f.string("password-env"), f.strings("receiver"), f.bool("tls"), f.bool("starttls"), f.duration("min-interval"),
        f.intValue("max-numbers"), f.string("send"));
    f.done();
    return m;
  }

  static SchedulerConfig fromJson(Fields config) {
    Fields s = config.object("scheduler");
    Fields u = config.object("utilization-limit");
    Fields r = config.object("remain-limit");
    SchedulerConfig c = new SchedulerConfig(
        s.intValue("max-process"),
        s.intValue("max-waiting"),
        s.duration("interval"),
        s.longValue("default-memory"),
        s.intValue("cores"),
        u.doubleValue("cpu"),
        u.doubleValue("memory"),
        r.longValue("memory"),
        s.intValue("load-nretry"),
        s.intValue("train-nretry"),
        s.longValue("default-cuda-memory"),
        u.doubleValue("cuda-memory"),
        r.longValue("cuda-memory"),
        s.parsed("placement", Parsers.PLACEMENT),
        s.intValue("max-per-device"),
        s.duration("put-interval"),
        s.duration("available-interval"),
        s.longValue("seed"),
        smtp(config.object("smtp")),
        s.doubleValue("oom-growth"),
        // journals written before the key existed hold no value: the default then applies
        s.ifGiven("learn-usage", k -> s.parsed(k, Parsers.LEARN_USAGE)).orElse(SchedulerConfig.DEFAULTS.learnUsage()),
        s.ifGiven("executor", k -> s.parsed(k, Parsers.EXECUTOR)).orElse(SchedulerConfig.DEFAULTS.executor()),
        config.ifGiven("slurm", config::object).map(ConfigCodec::slurm).orElse(SlurmConfig.DEFAULTS));
    s.done();
    u.done();
    r.done();
    config.done();
    return c;
  }
}
