package io.tributary.ui.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The page's HTTP responses: every one closes its connection and carries the same hardening. */
final class Responses {
  private Responses() {}

  /** The reason phrase of the statuses the page answers with. */
  private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(200, "OK"),
      Map.entry(303, "See Other"), Map.entry(400, "Bad Request"),
      Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
      Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
      Map.entry(408, "Request Timeout"), Map.entry(431, "Request Header Fields Too Large"),
      Map.entry(503, "Service Unavailable"), Map.entry(505, "HTTP Version Not Supported"));

  /** The status line and headers, up to and including the empty line. */
  static byte[] head(int status, String contentType, long length, String csp,
      String... extra) {
    StringBuilder h = new StringBuilder(512).append("HTTP/1.1 ").append(status).append(' ')
        .append(REASONS.getOrDefault(status, "Error")).append("\r\n")
        .append("Content-Type: ").append(contentType).append("\r\n");
    if (length >= 0) {
      h.append("Content-Length: ").append(length).append("\r\n");
    }
    h.append("Connection: close\r\nCache-Control: no-store\r\n")
        .append("X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n")
        .append("X-Frame-Options: DENY\r\nContent-Security-Policy: ").append(csp).append("\r\n");
    for (String e : extra) {
      h.append(e).append("\r\n");
    }
    return h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A plain-text answer of one line. */
  static void text(OutputStream out, int status, String message, boolean withBody,
      String... extra) throws IOException {
    byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
    out.write(head(status, "text/plain; charset=utf-8", body.length, "default-src 'none'",
        extra));
    if (withBody) {
      out.write(body);
    }
    out.flush();
  }
}
