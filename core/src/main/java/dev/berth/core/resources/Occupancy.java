package dev.berth.core.resources;

import dev.berth.core.lifecycle.Placement;
import java.time.Instant;

/**
 * What a task with a process holds.
 *
 * @param since when it took the device (for a one-stage task: when it launched)
 * @param placement host resources, device and GPU memory
 */
public record Occupancy(Instant since, Placement placement) {}
