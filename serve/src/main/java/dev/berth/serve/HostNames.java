package dev.berth.serve;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The names a request may give the server in its {@code Host} header: the address it listens on, the
 * address the connection came to, or {@code localhost}, each with the server's port or without.
 *
 * <p>A web page's scripts may only read answers from their own origin, but a name the page's site
 * controls can be made to resolve to 127.0.0.1 (DNS rebinding): the browser then reaches the
 * dashboard as that page's own origin, sending {@code Host: attacker.example:PORT}. An IP address in
 * {@code Host} cannot be rebound, and {@code localhost} resolves only here, so requests naming anything
 * else are answered 421 (Misdirected Request) before anything is read.
 */
final class HostNames {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%[\\w.-]+)?");

  private final InetAddress bound;

  /** The names of a server listening on {@code bound}. */
  HostNames(InetAddress bound) {
    this.bound = bound;
  }

  /** Whether the request's {@code Host} names this server. */
  boolean named(Request request) {
    String header = request.getHeaders().get(HttpHeader.HOST);
    if (header == null || header.isBlank()) {
      return false;
    }
    String host = header.trim();
    String port = null;
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      if (close < 0) {
        return false;
      }
      String after = host.substring(close + 1);
      if (!after.isEmpty() && !after.startsWith(":")) {
        return false;
      }
      port = after.isEmpty() ? null : after.substring(1);
      host = host.substring(1, close);
    } else if (host.indexOf(':') >= 0) {
      if (host.indexOf(':') != host.lastIndexOf(':')) {
        return false; // an IPv6 address must be in brackets
      }
      port = host.substring(host.indexOf(':') + 1);
      host = host.substring(0, host.indexOf(':'));
    }
    if (port != null && !port.equals(Integer.toString(Request.getLocalPort(request)))) {
      return false;
    }
    if (host.toLowerCase(Locale.ROOT).equals("localhost")) {
      return true;
    }
    InetAddress named = literal(host);
    String local = Request.getLocalAddr(request);
    return named != null && (named.equals(bound) || local != null && named.equals(literal(local)));
  }

  /** The address written in {@code text}, or null when it is a name: names are never looked up. */
  private static InetAddress literal(String text) {
    if (!IPV4.matcher(text).matches() && !IPV6.matcher(text).matches()) {
      return null;
    }
    try {
      return InetAddress.getByName(text); // a literal: parsed, not resolved
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
