package dev.berth.core.report;

/**
 * A GPU the run could use.
 *
 * @param id {@code cuda:N}
 * @param name the device's model name
 * @param totalMemoryBytes its memory
 * @param simulated whether it is a simulated device (no real GPU behind it)
 */
public record DeviceReport(String id, String name, long totalMemoryBytes, boolean simulated) {}
