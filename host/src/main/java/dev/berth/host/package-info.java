/**
 * The host ledger: one small file per user in a host folder that every Berth run on the machine
 * shares, whoever started it, each written by its user alone and read by all, holding what each run reserved (cores, host memory, GPU memory per
 * device) and what its tasks wait for, so that runs never double-book a device and a freed one goes
 * to the next task in one host-wide order. {@link dev.berth.host.HostLedgers} opens it (or, for a
 * run that wants to be alone, an in-memory one).
 */
package dev.berth.host;
