/** Starts task processes on the local machine and ends whole process trees. */
package dev.berth.runtime.exec;
