/**
 * Keeps each task's processes together so they end with the task and can be measured: a cgroup of
 * its own (v2, or the v1 hierarchies) where the machine lets Berth make one, else the processes
 * carrying the task's marker variable, found through {@code /proc}.
 */
package dev.berth.runtime.contain;
