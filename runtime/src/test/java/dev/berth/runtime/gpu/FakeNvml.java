package dev.berth.runtime.gpu;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** An {@link NvmlLibrary} in Java: scripted devices and statuses, answering as the C library does. */
final class FakeNvml implements NvmlLibrary {

  static final class Device {
    String name = "NVIDIA A100-SXM4-80GB";
    String uuid;
    long total = 80L << 30;
    long free = 80L << 30;
    long used = 0;
    int gpuPercent = 12;
    int memoryStatus = NvmlStatus.SUCCESS;
    int utilizationStatus = NvmlStatus.SUCCESS;
    int processStatus = NvmlStatus.SUCCESS;
    final List<long[]> processes = new ArrayList<>();
    /** Processes that appear between the size query and the read, once. */
    int appearOnFirstCall;
  }

  final List<Device> devices = new ArrayList<>();
  int initStatus = NvmlStatus.SUCCESS;
  int countStatus = NvmlStatus.SUCCESS;
  boolean hasV3 = true;
  boolean hasV2 = true;
  int shutdowns;
  final List<String> processCalls = new ArrayList<>();

  Device add() {
    Device d = new Device();
    d.uuid = "GPU-fake-" + devices.size();
    devices.add(d);
    return d;
  }

  private Device device(Pointer handle) {
    return devices.get((int) Pointer.nativeValue(handle) - 1);
  }

  @Override
  public int nvmlInit_v2() {
    return initStatus;
  }

  @Override
  public int nvmlShutdown() {
    shutdowns++;
    return NvmlStatus.SUCCESS;
  }

  @Override
  public int nvmlDeviceGetCount_v2(IntByReference deviceCount) {
    if (countStatus == NvmlStatus.SUCCESS) {
      deviceCount.setValue(devices.size());
    }
    return countStatus;
  }

  @Override
  public int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device) {
    device.setValue(new Pointer(index + 1));
    return NvmlStatus.SUCCESS;
  }

  @Override
  public int nvmlDeviceGetName(Pointer device, byte[] name, int length) {
    return copy(device(device).name, name, length);
  }

  @Override
  public int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length) {
    return copy(device(device).uuid, uuid, length);
  }

  private static int copy(String text, byte[] buffer, int length) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length + 1 > length) {
      return NvmlStatus.INSUFFICIENT_SIZE;
    }
    System.arraycopy(bytes, 0, buffer, 0, bytes.length);
    buffer[bytes.length] = 0;
    return NvmlStatus.SUCCESS;
  }

  @Override
  public int nvmlDeviceGetMemoryInfo(Pointer device, long[] memory) {
    Device d = device(device);
    if (d.memoryStatus == NvmlStatus.SUCCESS) {
      memory[0] = d.total;
      memory[1] = d.free;
      memory[2] = d.used;
    }
    return d.memoryStatus;
  }

  @Override
  public int nvmlDeviceGetUtilizationRates(Pointer device, int[] utilization) {
    Device d = device(device);
    if (d.utilizationStatus == NvmlStatus.SUCCESS) {
      utilization[0] = d.gpuPercent;
      utilization[1] = 3;
    }
    return d.utilizationStatus;
  }

  @Override
  public int nvmlDeviceGetComputeRunningProcesses_v3(Pointer device, IntByReference infoCount, byte[] infos) {
    if (!hasV3) {
      throw new UnsatisfiedLinkError("Error looking up function 'nvmlDeviceGetComputeRunningProcesses_v3'");
    }
    processCalls.add("v3");
    return processes(device(device), infoCount, infos, 24);
  }

  @Override
  public int nvmlDeviceGetComputeRunningProcesses_v2(Pointer device, IntByReference infoCount, byte[] infos) {
    if (!hasV2) {
      throw new UnsatisfiedLinkError("Error looking up function 'nvmlDeviceGetComputeRunningProcesses_v2'");
    }
    processCalls.add("v2");
    return processes(device(device), infoCount, infos, 24);
  }

  @Override
  public int nvmlDeviceGetComputeRunningProcesses(Pointer device, IntByReference infoCount, byte[] infos) {
    processCalls.add("v1");
    return processes(device(device), infoCount, infos, 16);
  }

  private int processes(Device d, IntByReference infoCount, byte[] infos, int stride) {
    if (d.processStatus != NvmlStatus.SUCCESS) {
      return d.processStatus;
    }
    for (; d.appearOnFirstCall > 0; d.appearOnFirstCall--) {
      d.processes.add(new long[] {90_000 + d.appearOnFirstCall, 1L << 20});
    }
    int capacity = infoCount.getValue();
    infoCount.setValue(d.processes.size());
    if (d.processes.size() > capacity) {
      return NvmlStatus.INSUFFICIENT_SIZE;
    }
    ByteBuffer b = ByteBuffer.wrap(infos).order(ByteOrder.nativeOrder());
    for (int i = 0; i < d.processes.size(); i++) {
      b.putInt(i * stride, (int) d.processes.get(i)[0]);
      b.putLong(i * stride + 8, d.processes.get(i)[1]);
    }
    return NvmlStatus.SUCCESS;
  }
}
