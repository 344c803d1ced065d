package io.tributary.ui.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Optional;

/**
 * Who may read the page. Without a token the page is bound to a loopback address and answers only
 * requests that name a loopback host, so a web page the viewer's browser runs cannot read it
 * through a DNS name rebound to 127.0.0.1. With a token every request must carry it: as a bearer
 * token, as the cookie a first visit with {@code ?token=} sets, or (that first visit) in the query.
 */
public final class Access {
  /** The cookie that holds the token after the first visit. */
  static final String COOKIE = "tributary-ui";

  private final Optional<byte[]> token;

  /** Access with {@code token} if present, else for loopback hosts only. */
  public Access(Optional<String> token) {
    this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8));
  }

  /** What to do with a request. */
  public sealed interface Decision {}

  /** Serve it. */
  public record Allow() implements Decision {}

  /** Set the token's cookie and send the browser to {@code location} (the token leaves the URL). */
  public record SetCookie(String location, String cookie) implements Decision {}

  /** Refuse it with {@code status} and a one-line {@code message}. */
  public record Deny(int status, String message) implements Decision {}

  /** The decision for {@code head}. */
  public Decision check(RequestHead head) {
    if (token.isEmpty()) {
      return loopbackHost(head.header("host")) ? new Allow()
          : new Deny(403, "this page answers only requests for localhost; use an SSH tunnel, "
              + "or start the view with a token to bind another address");
    }
    String auth = head.header("authorization");
    if (auth.regionMatches(true, 0, "Bearer ", 0, 7) && matches(auth.substring(7).strip())) {
      return new Allow();
    }
    for (String pair : head.header("cookie").split(";")) {
      String p = pair.strip();
      if (p.startsWith(COOKIE + "=") && matches(p.substring(COOKIE.length() + 1))) {
        return new Allow();
      }
    }
    if (head.path().equals("/")) {
      for (String pair : head.query().split("&")) {
        if (pair.startsWith("token=") && matches(decode(pair.substring(6)))) {
          return new SetCookie("/", COOKIE + "=" + new String(token.get(),
              StandardCharsets.UTF_8) + "; Path=/; HttpOnly; SameSite=Strict");
        }
      }
    }
    return new Deny(401, "this page needs its token: open /?token=TOKEN once");
  }

  private boolean matches(String given) {
    // Compared in time independent of where they differ.
    return MessageDigest.isEqual(token.get(), given.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** Whether a Host header names a loopback host (any port: an SSH tunnel may change it). */
  static boolean loopbackHost(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    String name;
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      name = end < 0 ? h : h.substring(0, end + 1);
    } else {
      int colon = h.indexOf(':');
      name = colon < 0 ? h : h.substring(0, colon);
    }
    return name.equals("localhost") || name.endsWith(".localhost") || name.equals("[::1]")
        || name.matches("127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}");
  }
}
