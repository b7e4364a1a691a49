/**
 * The control channel's line protocol, shared by both ends: Berth's control server and the task
 * worker in the child JVM. One message per line ({@link dev.berth.protocol.LineChannel}), its JSON
 * ({@link dev.berth.protocol.MessageJson}) and the messages themselves
 * ({@link dev.berth.protocol.ControlCodec}). No dependencies outside the JDK, so that the worker's
 * class path stays free of libraries. See {@code docs/protocol.md}.
 */
package dev.berth.protocol;
