/**
 * {@code berth serve}: a live dashboard and JSON API over the Berth runs on this host, on an
 * embedded Jetty bound to loopback and guarded by a token.
 */
package dev.berth.serve;
