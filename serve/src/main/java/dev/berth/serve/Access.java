package dev.berth.serve;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Who may do what: every request needs the token (as {@code Authorization: Bearer}, or the cookie the
 * first page load set) except reads under {@code --public-read}; a request without one is 401, with a
 * wrong one 403. A change asked with the cookie must also come from the dashboard's own pages, so
 * another site cannot make the browser ask for it.
 */
final class Access {

  /**
   * The name of the cookie that carries the token after the first page load, with the server's port in
   * it: browsers send a cookie of 127.0.0.1 to every port there, so the name keeps the dashboards on two
   * ports from replacing each other's cookie, and one never takes the other's (docs/security.md).
   */
  static String cookieName(int port) {
    return "berth_token_" + port;
  }

  /** What a request may do. */
  enum Verdict { ALLOWED, NO_TOKEN, WRONG_TOKEN, CROSS_SITE }

  private final ServeToken token;
  private final boolean publicRead;

  Access(ServeToken token, boolean publicRead) {
    this.token = token;
    this.publicRead = publicRead;
  }

  /** The verdict on a request; {@code changes} for requests that act (POST). */
  Verdict check(Request request, boolean changes) {
    Optional<String> bearer = bearer(request);
    Optional<String> cookie = cookie(request);
    Optional<String> presented = bearer.or(() -> cookie);
    if (presented.isEmpty()) {
      return !changes && publicRead ? Verdict.ALLOWED : Verdict.NO_TOKEN;
    }
    if (!token.matches(presented.get())) {
      return !changes && publicRead ? Verdict.ALLOWED : Verdict.WRONG_TOKEN;
    }
    if (changes && bearer.isEmpty() && !sameOrigin(request)) {
      return Verdict.CROSS_SITE;
    }
    return Verdict.ALLOWED;
  }

  /** Whether the request carries the token (as a bearer or in the cookie). */
  boolean presentsToken(Request request) {
    return bearer(request).or(() -> cookie(request)).filter(token::matches).isPresent();
  }

  /** Whether {@code candidate} is the token, e.g. from a first page load's {@code ?token=}. */
  boolean matches(String candidate) {
    return token.matches(candidate);
  }

  /**
   * The cookie that keeps the token for later requests to the server on {@code port}: not readable by
   * scripts, never sent cross-site.
   */
  HttpCookie cookie(int port) {
    return HttpCookie.build(cookieName(port), token.value()).path("/").httpOnly(true)
        .sameSite(HttpCookie.SameSite.STRICT).build();
  }

  private static Optional<String> bearer(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.of(header.substring(7).trim());
    }
    return Optional.empty();
  }

  private static Optional<String> cookie(Request request) {
    List<HttpCookie> cookies = Request.getCookies(request);
    String name = cookieName(Request.getLocalPort(request));
    return cookies.stream().filter(c -> c.getName().equals(name)).map(HttpCookie::getValue).findFirst();
  }

  /** Browsers say where a request comes from; only the dashboard's own origin may act with the cookie. */
  private static boolean sameOrigin(Request request) {
    String site = request.getHeaders().get("Sec-Fetch-Site");
    if (site != null && !site.equals("same-origin")) {
      return false;
    }
    String origin = request.getHeaders().get(HttpHeader.ORIGIN);
    if (origin == null) {
      return site != null;
    }
    URI self = request.getHttpURI().toURI();
    String expected = self.getScheme() + "://" + self.getRawAuthority();
    return origin.equals(expected);
  }
}
