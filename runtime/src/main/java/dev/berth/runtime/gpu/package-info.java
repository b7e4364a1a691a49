/**
 * GPU discovery: probes that read NVIDIA GPUs through NVML ({@link dev.berth.runtime.gpu.NvmlGpuProbe})
 * or {@code nvidia-smi} ({@link dev.berth.runtime.gpu.NvidiaSmiGpuProbe}), a probe of simulated
 * devices ({@link dev.berth.runtime.gpu.SimulatedGpuProbe}), and
 * {@link dev.berth.runtime.gpu.GpuProbes#select} which turns a {@code --gpus} selection into a probe.
 *
 * <p>Conversions that need no GPU (NVML status codes and sentinels, {@code nvidia-smi} CSV) live in
 * pure classes tested on recorded output.
 */
package dev.berth.runtime.gpu;
