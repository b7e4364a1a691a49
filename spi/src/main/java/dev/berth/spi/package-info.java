/**
 * The seams between Berth's runtime and the outside world: executors that start task processes,
 * probes that read host resources, and timers. The runtime depends on these interfaces; the CLI
 * wires real implementations and tests wire the fakes of {@code berth-testkit}.
 */
package dev.berth.spi;
