/** Reads the real host: CPU count and load, memory, and the memory of task process trees. */
package dev.berth.runtime.probe;
