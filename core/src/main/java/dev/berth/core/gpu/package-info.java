/**
 * GPUs in Berth's pure core: what a probe saw on each device ({@link dev.berth.core.gpu.GpuDevice},
 * {@link dev.berth.core.gpu.GpuProcess}), what the user selected with {@code --gpus}
 * ({@link dev.berth.core.gpu.DeviceSelection}, {@link dev.berth.core.gpu.SimulatedDevices}), and the
 * placement policies that order the devices a task fits on
 * ({@link dev.berth.core.gpu.PlacementPolicy}, {@link dev.berth.core.gpu.PlacementPolicies}).
 *
 * <p>Like the rest of the core, nothing here starts threads, performs I/O or reads a clock: a policy's
 * answer is a function of the device states and the {@link dev.berth.core.gpu.PlacementRequest},
 * whose seed and sequence make even the random policies repeatable.
 */
package dev.berth.core.gpu;
