/**
 * The Slurm backend's building blocks: {@link dev.berth.slurm.SbatchCommand} and
 * {@link dev.berth.slurm.BatchScript} turn one attempt into a batch job, the pure parsers
 * ({@link dev.berth.slurm.SbatchOutput}, {@link dev.berth.slurm.SqueueOutput},
 * {@link dev.berth.slurm.SacctOutput}) read what Slurm answers, {@link dev.berth.slurm.SlurmState}
 * maps every job state to a Berth outcome, and {@link dev.berth.slurm.SlurmExecutor} puts them
 * together behind the {@link dev.berth.spi.Executor} seam.
 */
package dev.berth.slurm;
