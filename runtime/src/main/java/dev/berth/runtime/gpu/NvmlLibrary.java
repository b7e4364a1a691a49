package dev.berth.runtime.gpu;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The JNA binding of the few NVML functions Berth calls. Every function returns an
 * {@code nvmlReturn_t} status ({@link NvmlStatus}). Structures are passed as primitive arrays that
 * JNA copies back after the call, so the decoding stays in {@link NvmlValues}:
 *
 * <ul>
 *   <li>{@code nvmlMemory_t} = {@code long[3]}: total, free, used (unsigned bytes);
 *   <li>{@code nvmlUtilization_t} = {@code int[2]}: gpu, memory (unsigned percent);
 *   <li>{@code nvmlProcessInfo_t} = {@value NvmlValues#PROCESS_INFO_BYTES} bytes each for the
 *       {@code _v2}/{@code _v3} entry points (pid uint, usedGpuMemory ulong, gpuInstanceId uint,
 *       computeInstanceId uint), {@value NvmlValues#PROCESS_INFO_V1_BYTES} for the unversioned one.
 * </ul>
 *
 * <p>A function the installed driver lacks throws {@link UnsatisfiedLinkError} when called.
 */
public interface NvmlLibrary extends Library {

  /** Initializes NVML; reference-counted with {@link #nvmlShutdown}. */
  int nvmlInit_v2();

  /** Releases what {@link #nvmlInit_v2} took. */
  int nvmlShutdown();

  /** The number of GPUs. */
  int nvmlDeviceGetCount_v2(IntByReference deviceCount);

  /** The handle of the GPU with this index. */
  int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

  /** The product name as a NUL-terminated string. */
  int nvmlDeviceGetName(Pointer device, byte[] name, int length);

  /** The UUID as a NUL-terminated string. */
  int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

  /** {@code nvmlMemory_t}: total, free, used. */
  int nvmlDeviceGetMemoryInfo(Pointer device, long[] memory);

  /** {@code nvmlUtilization_t}: gpu, memory. */
  int nvmlDeviceGetUtilizationRates(Pointer device, int[] utilization);

  /** Compute processes ({@code nvmlProcessInfo_t}, 24 bytes each); drivers from 510 on. */
  int nvmlDeviceGetComputeRunningProcesses_v3(Pointer device, IntByReference infoCount, byte[] infos);

  /** Compute processes ({@code nvmlProcessInfo_t}, 24 bytes each); drivers 470 to 510. */
  int nvmlDeviceGetComputeRunningProcesses_v2(Pointer device, IntByReference infoCount, byte[] infos);

  /** Compute processes ({@code nvmlProcessInfo_v1_t}, 16 bytes each); older drivers. */
  int nvmlDeviceGetComputeRunningProcesses(Pointer device, IntByReference infoCount, byte[] infos);
}
