/**
 * How a live run is reached from outside: the workdir lock that keeps a second scheduler out, and
 * the request folder that {@code berth cancel} writes into.
 */
package dev.berth.runtime.control;
