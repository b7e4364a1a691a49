package dev.berth.runtime.gpu;

import java.util.Map;

/** NVML's {@code nvmlReturn_t} codes and their messages, as {@code nvmlErrorString} words them. Pure. */
public final class NvmlStatus {

  /** The call succeeded. */
  public static final int SUCCESS = 0;
  /** The device or driver does not support the query (e.g. utilization in MIG mode). */
  public static final int NOT_SUPPORTED = 3;
  /** The buffer was too small; the count argument now holds the size needed. */
  public static final int INSUFFICIENT_SIZE = 7;
  /** The kernel driver is not loaded. */
  public static final int DRIVER_NOT_LOADED = 9;
  /** The user-space library and the kernel driver are of different versions. */
  public static final int LIB_RM_VERSION_MISMATCH = 18;

  private static final Map<Integer, String[]> CODES = Map.ofEntries(
      Map.entry(0, new String[] {"SUCCESS", "Success"}),
      Map.entry(1, new String[] {"UNINITIALIZED", "Uninitialized"}),
      Map.entry(2, new String[] {"INVALID_ARGUMENT", "Invalid Argument"}),
      Map.entry(3, new String[] {"NOT_SUPPORTED", "Not Supported"}),
      Map.entry(4, new String[] {"NO_PERMISSION", "Insufficient Permissions"}),
      Map.entry(5, new String[] {"ALREADY_INITIALIZED", "Already Initialized"}),
      Map.entry(6, new String[] {"NOT_FOUND", "Not Found"}),
      Map.entry(7, new String[] {"INSUFFICIENT_SIZE", "Insufficient Size"}),
      Map.entry(8, new String[] {"INSUFFICIENT_POWER", "Insufficient External Power"}),
      Map.entry(9, new String[] {"DRIVER_NOT_LOADED", "Driver Not Loaded"}),
      Map.entry(10, new String[] {"TIMEOUT", "Timeout"}),
      Map.entry(11, new String[] {"IRQ_ISSUE", "Interrupt request issue"}),
      Map.entry(12, new String[] {"LIBRARY_NOT_FOUND", "NVML Shared Library Not Found"}),
      Map.entry(13, new String[] {"FUNCTION_NOT_FOUND", "Function Not Found"}),
      Map.entry(14, new String[] {"CORRUPTED_INFOROM", "Corrupted infoROM"}),
      Map.entry(15, new String[] {"GPU_IS_LOST", "GPU is lost"}),
      Map.entry(16, new String[] {"RESET_REQUIRED", "GPU requires restart"}),
      Map.entry(17, new String[] {"OPERATING_SYSTEM", "The operating system has blocked the request"}),
      Map.entry(18, new String[] {"LIB_RM_VERSION_MISMATCH", "Driver/library version mismatch"}),
      Map.entry(19, new String[] {"IN_USE", "In use by another client"}),
      Map.entry(20, new String[] {"MEMORY", "Insufficient Memory"}),
      Map.entry(21, new String[] {"NO_DATA", "No data"}),
      Map.entry(22, new String[] {"VGPU_ECC_NOT_ENABLED", "The requested vgpu operation is not available on target device, because ECC is enabled"}),
      Map.entry(23, new String[] {"INSUFFICIENT_RESOURCES", "Ran out of critical resources, other than memory"}),
      Map.entry(24, new String[] {"FREQ_NOT_SUPPORTED", "The requested frequency is not supported"}),
      Map.entry(25, new String[] {"ARGUMENT_VERSION_MISMATCH", "The provided version is invalid/unsupported"}),
      Map.entry(26, new String[] {"DEPRECATED", "The requested functionality has been deprecated"}),
      Map.entry(27, new String[] {"NOT_READY", "The system is not ready for the request"}),
      Map.entry(28, new String[] {"GPU_NOT_FOUND", "The GPU cannot be found"}),
      Map.entry(29, new String[] {"INVALID_STATE", "The requested operation is not available in the current state"}),
      Map.entry(999, new String[] {"UNKNOWN", "Unknown Error"}));

  private NvmlStatus() {}

  /** The code's constant name without the {@code NVML_ERROR_} prefix, e.g. {@code GPU_IS_LOST}. */
  public static String name(int code) {
    String[] known = CODES.get(code);
    return known == null ? "UNKNOWN_CODE_" + code : known[0];
  }

  /**
   * A message for logs and {@code lastError}, e.g.
   * {@code "Driver/library version mismatch (NVML_ERROR_LIB_RM_VERSION_MISMATCH, 18)"}.
   */
  public static String describe(int code) {
    String[] known = CODES.get(code);
    if (known == null) {
      return "unknown NVML status " + code;
    }
    String constant = code == SUCCESS ? "NVML_SUCCESS" : "NVML_ERROR_" + known[0];
    return known[1] + " (" + constant + ", " + code + ")";
  }
}
