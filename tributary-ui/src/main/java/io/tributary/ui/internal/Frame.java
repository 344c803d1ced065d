package io.tributary.ui.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One rendered state of the page: the whole document for a first visit and the server-sent event
 * that brings an open page to it.
 *
 * @param version the run state's version it shows
 * @param document the page, script included, as UTF-8
 * @param event the {@code page} event (and, once the run has ended, the {@code end} event)
 * @param ended whether the run had ended
 */
record Frame(long version, byte[] document, byte[] event, boolean ended) {
  /** A frame of {@code main}, the content of the page's {@code <main>} element. */
  static Frame of(long version, String document, String main, boolean ended) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(main.length() + 1024);
    StringBuilder head = new StringBuilder("event: page\nid: ").append(version).append('\n');
    out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
    // An event's data is its data lines joined by line feeds; a carriage return would end a line.
    for (String line : main.replace("\r", "").split("\n", -1)) {
      out.writeBytes(("data: " + line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    out.writeBytes("\n".getBytes(StandardCharsets.UTF_8));
    if (ended) {
      out.writeBytes("event: end\ndata: ended\n\n".getBytes(StandardCharsets.UTF_8));
    }
    return new Frame(version, document.getBytes(StandardCharsets.UTF_8), out.toByteArray(),
        ended);
  }
}
