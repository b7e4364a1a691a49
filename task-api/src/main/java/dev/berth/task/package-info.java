/**
 * The API of a two-stage Berth task written in Java: implement {@link dev.berth.task.BerthTask},
 * and run it with {@link dev.berth.task.worker.WorkerMain}. The task loads its data on the CPU
 * while the GPUs are busy with other tasks, then trains on the device Berth hands it. This module
 * depends on nothing but the JDK.
 */
package dev.berth.task;
