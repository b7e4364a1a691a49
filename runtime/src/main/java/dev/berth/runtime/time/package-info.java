/** Real timers for the runtime: a single daemon scheduling thread, and named daemon threads. */
package dev.berth.runtime.time;
