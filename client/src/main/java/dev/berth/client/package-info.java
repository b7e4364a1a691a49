/**
 * Berth's Java API: run many tasks in parallel on this machine's CPUs and GPUs from Java code,
 * without a YAML spec.
 *
 * <ul>
 *   <li>{@link dev.berth.client.Berth}: a session (fedflow's {@code FedFlow}): {@code execute},
 *       {@code executeTask}, batch mode, ipyparallel's handles and {@code map}, FLGo's {@code tune};
 *   <li>{@link dev.berth.client.Tasks}, {@link dev.berth.client.Groups}, {@link dev.berth.client.Runs}:
 *       builders with every key of a spec, giving the same model the YAML loader gives;
 *   <li>{@link dev.berth.client.TaskHandle}, {@link dev.berth.client.TaskResult},
 *       {@link dev.berth.client.GroupResult}, {@link dev.berth.client.MapResults},
 *       {@link dev.berth.client.TuneResult}: what comes back.
 * </ul>
 *
 * <p>See docs/java-api.md for a walk-through.
 */
package dev.berth.client;
