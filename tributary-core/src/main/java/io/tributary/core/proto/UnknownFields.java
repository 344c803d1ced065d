package io.tributary.core.proto;

import com.google.protobuf.Message;

/** Describes fields a reader did not recognise, to explain an empty oneof. */
final class UnknownFields {
  private UnknownFields() {}

  static String describe(Message m) {
    var fields = m.getUnknownFields().asMap().keySet();
    return fields.isEmpty() ? "" : " (unknown field numbers " + fields + ")";
  }
}
