package dev.berth.journal;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SlurmConfig;
import dev.berth.core.model.SmtpConfig;
import java.util.LinkedHashMap;
import java.util.Map;

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

  static Json toJson(SchedulerConfig c) {
    Map<String, Json> scheduler = new LinkedHashMap<>();
    scheduler.put("max-process", Json.of(c.maxProcess()));
    scheduler.put("max-waiting", Json.of(c.maxWaiting()));
    scheduler.put("interval", Json.of(c.interval()));
    scheduler.put("default-memory", Json.of(c.defaultMemoryBytes()));
    scheduler.put("cores", Json.of(c.cores()));
    scheduler.put("load-nretry", Json.of(c.loadNretry()));
    scheduler.put("train-nretry", Json.of(c.trainNretry()));
    scheduler.put("default-cuda-memory", Json.of(c.defaultCudaMemoryBytes()));
    scheduler.put("placement", Json.of(c.placement()));
    scheduler.put("max-per-device", Json.of(c.maxPerDevice()));
    scheduler.put("put-interval", Json.of(c.putInterval()));
    scheduler.put("available-interval", Json.of(c.availableInterval()));
    scheduler.put("seed", Json.of(c.seed()));
    scheduler.put("oom-growth", Json.of(c.oomGrowth()));
    scheduler.put("learn-usage", Json.of(c.learnUsage()));
    scheduler.put("executor", Json.of(c.executor()));
    Map<String, Json> utilization = new LinkedHashMap<>();
    utilization.put("cpu", Json.of(c.cpuUtilizationLimit()));
    utilization.put("memory", Json.of(c.memoryUtilizationLimit()));
    utilization.put("cuda-memory", Json.of(c.cudaMemoryUtilizationLimit()));
    Map<String, Json> remain = new LinkedHashMap<>();
    remain.put("memory", Json.of(c.remainMemoryBytes()));
    remain.put("cuda-memory", Json.of(c.remainCudaMemoryBytes()));
    Map<String, Json> config = new LinkedHashMap<>();
    config.put("scheduler", new Json.Obj(scheduler));
    config.put("utilization-limit", new Json.Obj(utilization));
    config.put("remain-limit", new Json.Obj(remain));
    config.put("smtp", smtp(c.smtp()));
    config.put("slurm", slurm(c.slurm()));
    return new Json.Obj(config);
  }

  private static Json slurm(SlurmConfig m) {
    Map<String, Json> f = new LinkedHashMap<>();
    f.put("mode", Json.of(m.mode()));
    f.put("partition", Json.of(m.partition()));
    f.put("account", Json.of(m.account()));
    f.put("qos", Json.of(m.qos()));
    f.put("time", Json.of(m.time()));
    f.put("extra-args", Json.strings(m.extraArgs()));
    f.put("workdir-root", Json.of(m.workdirRoot()));
    f.put("gpu-memory-gres", Json.of(m.gpuMemoryGres()));
    f.put("arrays", Json.of(m.arrays()));
    f.put("max-jobs", Json.of(m.maxJobs()));
    f.put("gres", Json.of(m.gres()));
    f.put("cpus", Json.of(m.cpus()));
    f.put("memory", Json.of(m.memoryBytes()));
    f.put("max-allocations", Json.of(m.maxAllocations()));
    f.put("on-exit", Json.of(m.onExit()));
    f.put("poll-max", Json.of(m.pollMax()));
    return new Json.Obj(f);
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

  private static Json smtp(SmtpConfig m) {
    Map<String, Json> f = new LinkedHashMap<>();
    f.put("enable", Json.of(m.enable()));
    f.put("server-host", Json.of(m.serverHost()));
    f.put("server-port", Json.of(m.serverPort()));
    f.put("user", Json.of(m.user()));
    f.put("password-env", Json.of(m.passwordEnv()));
    f.put("receiver", Json.strings(m.receivers()));
    f.put("tls", Json.of(m.tls()));
    f.put("starttls", Json.of(m.starttls()));
    f.put("min-interval", Json.of(m.minInterval()));
    f.put("max-numbers", Json.of(m.maxNumbers()));
    f.put("send", Json.of(m.send()));
    return new Json.Obj(f);
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
        s.string("placement"),
        s.intValue("max-per-device"),
        s.duration("put-interval"),
        s.duration("available-interval"),
        s.longValue("seed"),
        smtp(config.object("smtp")),
        s.doubleValue("oom-growth"),
        // journals written before the key existed hold no value: the default then applies
        s.ifGiven("learn-usage", s::string).orElse(SchedulerConfig.DEFAULTS.learnUsage()),
        s.ifGiven("executor", s::string).orElse(SchedulerConfig.DEFAULTS.executor()),
        config.ifGiven("slurm", config::object).map(ConfigCodec::slurm).orElse(SlurmConfig.DEFAULTS));
    s.done();
    u.done();
    r.done();
    config.done();
    return c;
  }
}
